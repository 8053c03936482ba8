/** A benchmark figure next to its goal from the issue that set it: `87 ms (goal ≤ 100 ms: met)`. */
export const goal = (figure: number, limit: number, unit: string) =>
  `${figure} ${unit} (goal ≤ ${limit} ${unit}: ${figure <= limit ? 'met' : 'missed'})`;

/** A figure that must reach its goal, next to it: `0.31 × direct (goal ≥ 0.3 × direct: met)`. */
export const goalAtLeast = (figure: number, floor: number, unit: string) =>
  `${figure} ${unit} (goal ≥ ${floor} ${unit}: ${figure >= floor ? 'met' : 'missed'})`;
