import { describe, expect, it } from 'vitest';
import { replaySteps, rightAfter } from './moments.ts';

const t = (seconds: number) => new Date(Date.UTC(2026, 10, 29, 3, 0, seconds)).toISOString();

describe('replaySteps', () => {
  it('steps from one end to the other through each second with changes, a second after they settled', () => {
    const changes = [t(10.2), t(10.5), t(20), t(70)];
    expect(replaySteps(t(0), t(60), changes)).toEqual([t(0), t(11.5), t(21), t(60)]);
  });

  it('thins many seconds with changes evenly to the most steps asked for, both ends kept', () => {
    const changes = Array.from({ length: 100 }, (_, i) => t(i + 1));
    const steps = replaySteps(t(0), t(200), changes, 5);
    expect(steps).toEqual([t(0), t(2), t(52), t(101), t(200)]);
  });

  it('is both ends alone when nothing changed between them', () => {
    expect(replaySteps(t(0), t(60), [])).toEqual([t(0), t(60)]);
  });
});

describe('rightAfter', () => {
  it('is a second after the change, or now (undefined) when that second has not passed', () => {
    expect(rightAfter(t(10), Date.parse(t(30)))).toBe(t(11));
    expect(rightAfter(t(10), Date.parse(t(10.5)))).toBeUndefined();
  });
});
