import { describe, expect, it } from 'vitest';
import { chartWindow, maxPointsPerSeries, parseQueryTime, queryRange, queryTimeout } from './bounds.ts';

const now = Date.UTC(2026, 10, 20, 12);

describe('metrics store query bounds', () => {
  it('picks the chart step from the range (1h → 1m, 24h → 15m) and refuses days and out-of-range windows', () => {
    expect(chartWindow(undefined, now)).toMatchObject({
      range: '1h',
      startMs: now - 3_600_000,
      stepMs: 60_000,
    });
    expect(chartWindow('24h', now).stepMs).toBe(900_000);
    expect(chartWindow('2h', now).stepMs).toBe(120_000);
    expect(() => chartWindow('7d', now)).toThrow(/days are not accepted: write 168h/);
    expect(() => chartWindow('30s', now)).toThrow('range: "30s" is outside 1m to 336h');
    expect(() => chartWindow('400h', now)).toThrow(/outside/);
  });

  it('reads times as Unix seconds, RFC 3339 or a duration back from now', () => {
    expect(parseQueryTime('1795000000.5', 'start', now)).toBe(1_795_000_000_500);
    expect(parseQueryTime('2026-11-20T11:00:00Z', 'start', now)).toBe(now - 3_600_000);
    expect(parseQueryTime('90m', 'start', now)).toBe(now - 5_400_000);
    expect(() => parseQueryTime('yesterday', 'start', now)).toThrow(/start/);
  });

  it(`allows ${maxPointsPerSeries} points per series and refuses one more, naming the step that fits`, () => {
    const start = String((now - (maxPointsPerSeries - 1) * 1000) / 1000);
    expect(queryRange({ start, end: String(now / 1000), step: '1' }, now)).toEqual({
      startMs: now - (maxPointsPerSeries - 1) * 1000,
      endMs: now,
      stepMs: 1000,
    });
    expect(() => queryRange({ start: '24h', step: '5s' }, now)).toThrow(
      'step: 17281 points per series exceed the limit of 11000; use a step of at least 8s or a shorter range',
    );
    expect(() => queryRange({ start: '1h', end: '2h' }, now)).toThrow('end: must not be before start');
    expect(() => queryRange({ end: '1h' }, now)).toThrow(/start: a range query needs start/);
    expect(() => queryRange({ start: '1h', step: '0' }, now)).toThrow(/step: "0" must be above zero/);
  });

  it('caps a query time-out at the configured one', () => {
    expect(queryTimeout(undefined, 30_000)).toBe(30_000);
    expect(queryTimeout('5s', 30_000)).toBe(5000);
    expect(queryTimeout('10m', 30_000)).toBe(30_000);
    expect(() => queryTimeout('soon', 30_000)).toThrow(/timeout/);
  });
});
