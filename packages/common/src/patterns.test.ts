import { describe, expect, it } from 'vitest';
import {
  callerPattern,
  callerPatternMaxChars,
  keepMatching,
  linearRegex,
  PatternError,
  quoteRegex,
} from './patterns.ts';

const lines = (count: number, length: number) =>
  Array.from({ length: count }, (_, i) => `${i}`.padEnd(length, 'x'));

describe('callerPattern', () => {
  it('is a case-insensitive regular expression', () => {
    const pattern = callerPattern('err(or)?\\s+\\d+');
    expect(pattern.test('ERROR 42')).toBe(true);
    expect(pattern.test('an err 7 happened')).toBe(true);
    expect(pattern.test('warning 42')).toBe(false);
  });

  it.each([
    ['(', 'a ( b', 'a b'],
    ['(a)\\1', 'x (a)\\1 y', 'aa'],
    ['a(?=b)', 'a(?=b)', 'ab'],
  ])('takes %s, which RE2 does not compile, as literal text', (text, literal, regexReading) => {
    const pattern = callerPattern(text);
    expect(pattern.test(literal)).toBe(true);
    expect(pattern.test(regexReading)).toBe(false);
  });

  it(`refuses a pattern longer than ${callerPatternMaxChars} characters, naming the field`, () => {
    expect(() => callerPattern('a'.repeat(callerPatternMaxChars + 1), 'grep')).toThrow(
      new PatternError(`grep is longer than ${callerPatternMaxChars} characters`),
    );
    expect(callerPattern('a'.repeat(callerPatternMaxChars)).test('a'.repeat(300))).toBe(true);
  });

  it('matches the pattern that froze the agent in linear time', () => {
    // On RegExp one 200-character line of this takes about 0.2 s, 2 000 of them minutes.
    const pattern = callerPattern('^(.?){18}.{18}#');
    const log = lines(2_000, 200);
    const start = performance.now();
    expect(log.filter((line) => pattern.test(line))).toEqual([]);
    expect(performance.now() - start).toBeLessThan(1_000);
    expect(pattern.test(`${'x'.repeat(20)}#`)).toBe(true);
  });
});

describe('linearRegex', () => {
  it('matches quoted text literally', () => {
    const pattern = linearRegex(`^${quoteRegex('a.b*(c)')}$`);
    expect(pattern.test('a.b*(c)')).toBe(true);
    expect(pattern.test('axbb(c)')).toBe(false);
  });

  it('is exact unless asked to ignore case', () => {
    expect(linearRegex('abc').test('ABC')).toBe(false);
    expect(linearRegex('abc', { ignoreCase: true }).test('ABC')).toBe(true);
  });
});

describe('keepMatching', () => {
  it('keeps the items whose text matches, in order', async () => {
    const items = [{ line: 'GET /a' }, { line: 'POST /b' }, { line: 'get /c' }];
    expect(await keepMatching(items, callerPattern('^get'), (item) => item.line)).toEqual([
      { line: 'GET /a' },
      { line: 'get /c' },
    ]);
  });

  it('lets timers run while a costly pattern works through a big log', async () => {
    // An unanchored `a.{20}b` defeats the DFA's cache: microseconds per character, linear all the same.
    let seed = 1;
    const bit = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) & 0x7fffffff;
      return (seed >> 16) & 1;
    };
    const log = Array.from({ length: 120 }, () =>
      Array.from({ length: 1_000 }, () => (bit() ? 'a' : 'b')).join(''),
    );
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await keepMatching(log, callerPattern('a.{20}b#'), (line) => line, { sliceMs: 5, budgetMs: 60_000 });
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(5);
  });

  it('gives up past its budget with an error that says how far it got', async () => {
    const log = lines(100_000, 200);
    await expect(
      keepMatching(log, callerPattern('x{50}#'), (line) => line, { sliceMs: 1, budgetMs: 5 }),
    ).rejects.toThrow(
      /^the pattern took over 5 ms on \d+ of 100000 lines: make it simpler or read fewer lines$/,
    );
  });
});
