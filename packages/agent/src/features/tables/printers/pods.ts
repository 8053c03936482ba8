import { type PodSummary, podSummary, podTone, type TableCell } from '@binnacle/common';
import { age, ageColumn, arr, column, type Json, obj, str } from './format.ts';
import type { Printer } from './index.ts';

/** RESTARTS: the count, with how long ago the last one ended when there was one: `5 (3m ago)`. */
function restartsCell({ restarts, lastRestart }: PodSummary): TableCell {
  if (restarts === 0 || lastRestart === undefined) return String(restarts);
  return { before: `${restarts} (`, at: lastRestart, after: ' ago)' };
}

function readinessGates(spec: Json, conditions: Json[]): string | null {
  const gates = arr(spec.readinessGates);
  if (gates.length === 0) return null;
  const passed = gates.filter((gate) => {
    const condition = conditions.find((c) => c.type === gate.conditionType);
    return condition?.status === 'True';
  }).length;
  return `${passed}/${gates.length}`;
}

export const podPrinter: Printer = {
  columns: [
    column('READY', 'string', 0, 'ready containers of all containers'),
    column('STATUS', 'string', 0, 'the aggregate status of the containers'),
    column('RESTARTS', 'string', 0, 'container restarts, and how long ago the last one was'),
    ageColumn,
    column('IP', 'string', 1),
    column('NODE', 'string', 1),
    column('NOMINATED NODE', 'string', 1),
    column('READINESS GATES', 'string', 1),
  ],
  print(pod) {
    const spec = obj(pod.spec);
    const status = obj(pod.status);
    const summary = podSummary(pod);
    return {
      cells: [
        summary.ready,
        summary.reason,
        restartsCell(summary),
        age(pod),
        str(arr(status.podIPs)[0]?.ip) || null,
        str(spec.nodeName) || null,
        str(status.nominatedNodeName) || null,
        readinessGates(spec, arr(status.conditions)),
      ],
      status: { text: summary.reason, tone: podTone(summary.reason) },
    };
  },
};
