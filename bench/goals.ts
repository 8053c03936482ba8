/** A benchmark figure next to its goal from the issue that set it: `87 ms (goal ≤ 100 ms: met)`. */
export const goal = (figure: number, limit: number, unit: string) =>
  `${figure} ${unit} (goal ≤ ${limit} ${unit}: ${figure <= limit ? 'met' : 'missed'})`;
