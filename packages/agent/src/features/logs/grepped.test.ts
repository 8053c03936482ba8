import { describe, expect, it } from 'vitest';
import { leveled, shownLines } from './grepped.ts';

const lines = [
  'level=info msg=started',
  '{"level":40,"msg":"slow"}',
  'lvl=ERR msg="write failed" token=abc',
  'severity=debug msg=tick',
  'a plain line about an error',
];

describe('leveled', () => {
  it('keeps structured lines at the level or worse and drops lines without a level', () => {
    expect(leveled(lines, 'warn', (l) => l)).toEqual([lines[1], lines[2]]);
    expect(leveled(lines, 'error', (l) => l)).toEqual([lines[2]]);
    expect(leveled(lines, 'debug', (l) => l)).toEqual(lines.slice(0, 4));
    expect(leveled(lines, undefined, (l) => l)).toEqual(lines);
  });

  it('applies with grep, credentials scrubbed, in the lines a tool answers', async () => {
    expect(await shownLines(lines, 'write', 'warn')).toEqual(['lvl=ERR msg="write failed" token=[REDACTED]']);
  });
});
