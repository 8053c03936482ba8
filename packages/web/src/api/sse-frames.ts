/**
 * Splits Server-Sent Events text as it arrives into the `data` of each complete event (the lines of one
 * event joined by newlines) and what is left over: the start of an event whose blank line has not come yet.
 * Comments (`: heartbeat`) and other fields are dropped; an event without `data:` lines yields nothing.
 */
export function splitSseData(buffer: string): { data: string[]; rest: string } {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  const data: string[] = [];
  for (const block of blocks) {
    const lines = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
    if (lines.length > 0) data.push(lines.join('\n'));
  }
  return { data, rest };
}
