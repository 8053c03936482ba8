import { describe, expect, it } from 'vitest';
import { LineSplitter, maxLineBytes, parseTimestamped } from './lines.ts';

describe('LineSplitter', () => {
  it('joins lines across chunks, including a UTF-8 character split in two', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter();
    const text = Buffer.from('first\nsecönd\r\nthi');
    splitter.push(text.subarray(0, 10), (l) => lines.push(l));
    splitter.push(text.subarray(10), (l) => lines.push(l));
    splitter.push(Buffer.from('rd\nlast'), (l) => lines.push(l));
    splitter.end((l) => lines.push(l));
    expect(lines).toEqual(['first', 'secönd', 'third', 'last']);
  });

  it('cuts a runaway line and drops the rest of it', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter();
    splitter.push(Buffer.from('x'.repeat(maxLineBytes + 10)), (l) => lines.push(l));
    splitter.push(Buffer.from('yyyy\nnext\n'), (l) => lines.push(l));
    expect(lines.map((l) => l.length)).toEqual([maxLineBytes + 1, 4]);
    expect(lines[1]).toBe('next');
  });
});

describe('parseTimestamped', () => {
  it('splits the Kubernetes timestamp from the line', () => {
    expect(parseTimestamped('2026-11-22T20:00:00.123456789Z hello world')).toEqual({
      timestamp: '2026-11-22T20:00:00.123456789Z',
      line: 'hello world',
    });
    expect(parseTimestamped('no timestamp here')).toEqual({ line: 'no timestamp here' });
  });
});
