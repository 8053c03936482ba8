import { describe, expect, it } from 'vitest';
import { chartLines, sumByTime } from './chart-lines.ts';

const pod = (name: string, points: (number | null)[][]) => ({ name: 'usage', labels: { pod: name }, points });

describe('chart lines', () => {
  it("adds the pods' usage at each sample, skipping the ones without a number", () => {
    expect(
      sumByTime([
        [
          [60, 1],
          [120, null],
        ],
        [
          [60, 2],
          [120, null],
          [180, 4],
        ],
      ]),
    ).toEqual([
      [60, 3],
      [120, null],
      [180, 4],
    ]);
  });

  it('draws a total beside each pod, then requests and limits dashed', () => {
    const lines = chartLines([
      pod('web-b', [[60, 0.2]]),
      pod('web-a', [[60, 0.1]]),
      { name: 'requests', labels: {}, points: [[60, 0.5]] },
      { name: 'limits', labels: {}, points: [[60, 1]] },
    ]);
    expect(lines.map((l) => [l.label, l.dashed ?? false])).toEqual([
      ['Usage, all 2 pods', false],
      ['web-a', false],
      ['web-b', false],
      ['Requests', true],
      ['Limits', true],
    ]);
    expect(lines[0]?.points).toEqual([[60, 0.30000000000000004]]);
  });

  it('draws one pod as plain usage', () => {
    expect(chartLines([pod('web-a', [[60, 0.1]])]).map((l) => l.label)).toEqual(['Usage']);
  });
});
