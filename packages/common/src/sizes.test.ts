import { describe, expect, it } from 'vitest';
import { parseSize } from './sizes.ts';

describe('parseSize', () => {
  it.each([
    ['512Mi', 512 * 1024 * 1024],
    ['1Gi', 1024 ** 3],
    ['100M', 100e6],
    ['65536', 65536],
    ['1.5Ki', 1536],
  ])('reads %s', (text, bytes) => {
    expect(parseSize(text, 's')).toBe(bytes);
  });

  it.each(['', '1GB', '-1Mi', 'lots'])('rejects %j naming the setting', (text) => {
    expect(() => parseSize(text, '--timeline-max-size')).toThrow(/^--timeline-max-size: /);
  });
});
