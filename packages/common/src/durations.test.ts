import { describe, expect, it } from 'vitest';
import {
  durationPattern,
  formatDuration,
  parseDuration,
  parseStep,
  parseTime,
  parseTimeOrDuration,
  parseUnixTimeOrDuration,
  rfc3339Pattern,
  stepPattern,
  timeOrDurationPattern,
  unixTimeOrDurationPattern,
} from './durations.ts';

describe('parseDuration', () => {
  it.each([
    ['168h', 168 * 3_600_000],
    ['20m', 1_200_000],
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['1h0m10s', 3_610_000],
    ['1.5h', 5_400_000],
    ['250ms', 250],
    ['2m30s', 150_000],
  ])('reads %s', (text, ms) => {
    expect(parseDuration(text, 'maxInactive')).toBe(ms);
  });

  it('rejects days and names the setting', () => {
    expect(() => parseDuration('7d', 'auth.sessionLifetime')).toThrow(
      'auth.sessionLifetime: "7d" is not a duration like 168h, 20m, 90s or 1h30m (days are not accepted: write 168h)',
    );
  });

  it.each(['', '10', 'h', '1x', '1m1h', '-5m', '5 m'])('rejects %j', (text) => {
    expect(() => parseDuration(text, 'setting')).toThrow(/^setting: /);
  });
});

describe('formatDuration', () => {
  it.each([
    [5_400_000, '1h30m'],
    [45_000, '45s'],
    [0, '0s'],
    [250, '250ms'],
  ])('writes %d as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

const accepts = (parse: () => unknown) => {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
};

/** Each sample with whether it is valid, for it.each. */
const samples = (valid: string[], invalid: string[]): [string, boolean][] => [
  ...valid.map((text): [string, boolean] => [text, true]),
  ...invalid.map((text): [string, boolean] => [text, false]),
];

const durations = {
  valid: ['168h', '20m', '90s', '1h30m', '1h0m10s', '1.5h', '250ms', '2m30s', '1m5ms', '0s'],
  invalid: [
    '',
    '10',
    'h',
    '1x',
    '1m1h',
    '-5m',
    '5 m',
    ' 5m',
    '5m ',
    '7d',
    '1.5ms',
    'ms',
    '5mss',
    '1h 30m',
    '.5h',
  ],
};
const times = {
  valid: [
    '2026-11-20T10:00:00Z',
    '2026-11-20t10:00:00z',
    '2026-11-20T10:00:00.123456+02:00',
    '2026-11-20T23:59:59-05:30',
    '2024-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '2026-04-30T00:00:00Z',
    '2026-12-31T23:59:59Z',
  ],
  invalid: [
    '2026-11-20',
    '2026-11-20 10:00:00Z',
    '2026-11-20T10:00Z',
    '2026-11-20T10:00:00',
    '2026-11-20T10:00:00+0200',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-11-20T24:00:00Z',
    '2026-11-20T10:60:00Z',
    '20261120T100000Z',
    'yesterday',
  ],
};
// Calendar days that do not exist: the pattern counts months and leap years, so the document refuses them too.
const missingDays = [
  '2026-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '2026-02-31T00:00:00Z',
  '2026-04-31T12:00:00Z',
];

describe('the patterns the OpenAPI document carries, against their parsers', () => {
  it.each(samples(durations.valid, durations.invalid))('duration %j: both say %s', (text, valid) => {
    expect(new RegExp(durationPattern).test(text)).toBe(valid);
    expect(accepts(() => parseDuration(text, 'x'))).toBe(valid);
  });

  it.each(samples(times.valid, times.invalid))('RFC 3339 time %j: both say %s', (text, valid) => {
    expect(new RegExp(rfc3339Pattern).test(text)).toBe(valid);
    expect(accepts(() => parseTime(text, 'x'))).toBe(valid);
  });

  it.each(samples([...durations.valid, ...times.valid], [...durations.invalid, ...times.invalid]))(
    'time or duration %j: both say %s',
    (text, valid) => {
      expect(new RegExp(timeOrDurationPattern).test(text)).toBe(valid);
      expect(accepts(() => parseTimeOrDuration(text, 'x', Date.now()))).toBe(valid);
    },
  );

  it.each(missingDays)('refuses %s, a day the month does not have, in the pattern and the parser', (text) => {
    expect(new RegExp(rfc3339Pattern).test(text)).toBe(false);
    expect(() => parseTime(text, 'since')).toThrow(
      `since: "${text}" is not an RFC 3339 time like 2026-11-20T10:00:00Z`,
    );
  });
});

describe('parseTime and parseTimeOrDuration', () => {
  it('reads a time with its zone', () => {
    expect(parseTime('2026-11-20T11:00:00.5+01:00', 'x')).toBe(Date.UTC(2026, 10, 20, 10, 0, 0, 500));
  });

  it('counts a duration back from now', () => {
    expect(parseTimeOrDuration('90m', 'since', 10_000_000)).toBe(10_000_000 - 5_400_000);
  });

  it('names both forms when neither fits', () => {
    expect(() => parseTimeOrDuration('7d', 'since', 0)).toThrow(
      'since: "7d" is not a duration like 168h, 20m, 90s or 1h30m (days are not accepted: write 168h), or an RFC 3339 time',
    );
  });
});

describe('the forms of a metrics query: steps and times', () => {
  const now = Date.UTC(2026, 10, 20, 12);

  it('reads a step in seconds or hours form, and its pattern takes what it reads', () => {
    expect(parseStep('30', 'step')).toBe(30_000);
    expect(parseStep('0.5', 'step')).toBe(500);
    expect(parseStep('5m', 'step')).toBe(300_000);
    for (const value of ['30', '0.5', '5m', '1h30m'])
      expect(new RegExp(stepPattern).test(value), value).toBe(true);
    expect(() => parseStep('0', 'step')).toThrow('step: "0" must be above zero');
    expect(() => parseStep('fast', 'step')).toThrow(/step: "fast" is not a duration .*, or seconds$/);
    for (const value of ['fast', '1d', '-5', ''])
      expect(new RegExp(stepPattern).test(value), value).toBe(false);
  });

  it('reads a time as Unix seconds, RFC 3339 or a duration back from now, and its pattern takes what it reads', () => {
    expect(parseUnixTimeOrDuration('1795000000.5', 'start', now)).toBe(1_795_000_000_500);
    expect(parseUnixTimeOrDuration('2026-11-20T11:00:00Z', 'start', now)).toBe(now - 3_600_000);
    expect(parseUnixTimeOrDuration('90m', 'start', now)).toBe(now - 5_400_000);
    for (const value of ['1795000000.5', '2026-11-20T11:00:00Z', '90m'])
      expect(new RegExp(unixTimeOrDurationPattern).test(value), value).toBe(true);
    expect(() => parseUnixTimeOrDuration('yesterday', 'start', now)).toThrow(/, or Unix seconds$/);
    for (const value of ['yesterday', '7d', '2026-11-20'])
      expect(new RegExp(unixTimeOrDurationPattern).test(value), value).toBe(false);
  });
});
