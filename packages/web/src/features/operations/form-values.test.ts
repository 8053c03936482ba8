import { describe, expect, it } from 'vitest';
import { duration, optionalWholeNumber, wholeNumber } from './form-values.ts';

const replicas = { min: 0, max: 10_000 };

describe('wholeNumber', () => {
  it('takes whole numbers within the bounds, around blanks', () => {
    expect(wholeNumber('3', replicas)).toEqual({ value: 3 });
    expect(wholeNumber(' 0 ', replicas)).toEqual({ value: 0 });
    expect(wholeNumber('10000', replicas)).toEqual({ value: 10_000 });
    expect(wholeNumber('4.0', replicas)).toEqual({ value: 4 });
  });

  it('refuses a blank field instead of reading it as 0', () => {
    expect(wholeNumber('', replicas)).toEqual({ problem: 'Enter a number.' });
    expect(wholeNumber('   ', replicas)).toEqual({ problem: 'Enter a number.' });
  });

  it('refuses negative, fractional, non-numeric and too large values, saying why', () => {
    expect(wholeNumber('-1', replicas)).toEqual({ problem: 'At least 0.' });
    expect(wholeNumber('3.5', replicas)).toEqual({ problem: 'Enter a whole number.' });
    expect(wholeNumber('abc', replicas)).toEqual({ problem: '"abc" is not a number.' });
    expect(wholeNumber('12abc', replicas)).toEqual({ problem: '"12abc" is not a number.' });
    expect(wholeNumber('1e3', replicas)).toEqual({ problem: '"1e3" is not a number.' });
    expect(wholeNumber('0x10', replicas)).toEqual({ problem: '"0x10" is not a number.' });
    expect(wholeNumber('Infinity', replicas)).toEqual({ problem: '"Infinity" is not a number.' });
    expect(wholeNumber('10001', replicas)).toEqual({ problem: 'At most 10000.' });
    expect(wholeNumber('99999999999999999999', replicas)).toEqual({ problem: 'At most 10000.' });
  });
});

describe('optionalWholeNumber', () => {
  it('reads a blank field as not set, and anything else as wholeNumber does', () => {
    expect(optionalWholeNumber('', { min: 0, max: 86_400 })).toEqual({ value: undefined });
    expect(optionalWholeNumber('30', { min: 0, max: 86_400 })).toEqual({ value: 30 });
    expect(optionalWholeNumber('-5', { min: 0, max: 86_400 })).toEqual({ problem: 'At least 0.' });
  });
});

describe('duration', () => {
  it('reads hours, minutes and seconds into seconds', () => {
    expect(duration('90s', 900)).toEqual({ value: 90 });
    expect(duration('5m', 900)).toEqual({ value: 300 });
    expect(duration('1m30s', 900)).toEqual({ value: 90 });
    expect(duration('0.5m', 900)).toEqual({ value: 30 });
  });

  it('refuses blank, unitless, zero and too long durations', () => {
    expect(duration('', 900).problem).toMatch(/^Enter a duration/);
    expect(duration('60', 900).problem).toMatch(/is not a duration/);
    expect(duration('-5s', 900).problem).toMatch(/is not a duration/);
    expect(duration('1d', 900).problem).toMatch(/is not a duration/);
    expect(duration('0s', 900)).toEqual({ problem: 'At least 1s.' });
    expect(duration('16m', 900)).toEqual({ problem: 'At most 15m.' });
  });
});
