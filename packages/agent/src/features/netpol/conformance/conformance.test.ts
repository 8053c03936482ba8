import { describe, expect, it } from 'vitest';
import { evaluateConnection } from '../evaluate.ts';
import { podReachabilityMatrix, reachabilityMatrix } from '../matrix.ts';
import type { ObjectRef } from '../model.ts';
import { type ConformanceStep, conformanceCases, expectedTable, modelPods, snapshotOf } from './cases.ts';

const text = (ref: ObjectRef) => `${ref.namespace}/${ref.name}`;
const word = (allowed: boolean) => (allowed ? 'allowed' : 'denied');

/** Each pair whose answer differs from the table, as a sentence; empty when all 81 agree. */
function disagreements(expected: boolean[][], actual: boolean[][], how: string): string[] {
  return modelPods.flatMap((source, s) =>
    modelPods.flatMap((destination, d) => {
      const want = expected[s]?.[d];
      const got = actual[s]?.[d];
      return want === got
        ? []
        : [`${text(source)} → ${text(destination)}: expected ${word(!!want)}, ${how} says ${word(!!got)}`];
    }),
  );
}

function evaluatePairs(step: ConformanceStep): boolean[][] {
  const snapshot = snapshotOf(step);
  return modelPods.map(
    (source) =>
      modelPods.map(
        (destination) =>
          evaluateConnection(snapshot, {
            source: { pod: source },
            destination: { pod: destination },
            ...step.probe,
          }).allowed,
      ),
    // One query per pair: the single-connection path must agree with the matrix, not just the matrix alone.
  );
}

describe('upstream NetworkPolicy conformance truth tables', () => {
  it('holds the upstream cases and names them', () => {
    expect(conformanceCases.filter((c) => c.upstream).length).toBeGreaterThanOrEqual(40);
    expect(new Set(conformanceCases.map((c) => `${c.suite} ${c.name}`)).size).toBe(conformanceCases.length);
  });

  describe.each(conformanceCases.map((c) => [`[${c.suite}] ${c.name}`, c] as const))(
    '%s',
    (_title, testCase) => {
      it.each(testCase.steps.map((step, i) => [`step ${i + 1}: ${step.title}`, step] as const))(
        '%s',
        (_step, step) => {
          const expected = expectedTable(step);
          const matrix = podReachabilityMatrix(snapshotOf(step), modelPods, step.probe);
          const fromMatrix = matrix.cells.map((row) => row.map((cell) => cell.allowed));
          expect(disagreements(expected, fromMatrix, 'reachabilityMatrix')).toEqual([]);
          expect(disagreements(expected, evaluatePairs(step), 'evaluateConnection')).toEqual([]);
          // The per-namespace form must give the same 3×3 blocks along the diagonal.
          for (const namespace of new Set(modelPods.map((p) => p.namespace))) {
            const block = reachabilityMatrix(snapshotOf(step), namespace, step.probe);
            const rows = modelPods.flatMap((p, i) => (p.namespace === namespace ? [i] : []));
            const want = rows.map((s) => rows.map((d) => expected[s]?.[d]));
            expect(block.cells.map((row) => row.map((cell) => cell.allowed))).toEqual(want);
          }
        },
      );
    },
  );
});
