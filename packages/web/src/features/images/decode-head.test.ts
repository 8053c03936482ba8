import { describe, expect, it } from 'vitest';
import { decodeHead } from './decode-head.ts';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('decodeHead', () => {
  it('reads UTF-8 as text, and a NUL or an invalid sequence as binary', () => {
    expect(decodeHead(new TextEncoder().encode('ID=binnacle\n'), false)).toEqual({
      kind: 'text',
      text: 'ID=binnacle\n',
      truncated: false,
    });
    expect(decodeHead(bytes(0x7f, 0x45, 0x4c, 0x46, 0), false)).toMatchObject({ kind: 'binary' });
    expect(decodeHead(bytes(0xff, 0xfe, 0x41), false)).toMatchObject({ kind: 'binary' });
  });

  it('keeps a cut read as text when only its last character is cut', () => {
    // "é" is 0xc3 0xa9: a read cut after 0xc3 is still text.
    expect(decodeHead(bytes(0x61, 0xc3), true)).toEqual({ kind: 'text', text: 'a', truncated: true });
    expect(decodeHead(bytes(0x61, 0xc3), false)).toMatchObject({ kind: 'binary' });
  });
});
