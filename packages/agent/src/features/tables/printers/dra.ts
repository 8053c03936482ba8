import type { KubeObject } from '@binnacle/common';
import { age, ageColumn, arr, column, obj, str } from './format.ts';
import type { Printer } from './index.ts';

/** Printers of dynamic resource allocation (resource.k8s.io), ADR 0053. */

/** STATE: `deleted`, then `pending` or `allocated` (and `reserved` when a consumer holds it). */
export function resourceClaimState(claim: KubeObject): string {
  const states: string[] = [];
  const deleted = Boolean(claim.metadata?.deletionTimestamp);
  if (deleted) states.push('deleted');
  const status = obj(claim.status);
  if (status.allocation === undefined || status.allocation === null) {
    if (!deleted) states.push('pending');
  } else {
    states.push('allocated');
    if (arr(status.reservedFor).length > 0) states.push('reserved');
  }
  return states.join(',');
}

export const resourceClaimPrinter: Printer = {
  columns: [column('STATE'), ageColumn],
  print(object) {
    const state = resourceClaimState(object);
    return {
      cells: [state, age(object)],
      status: {
        text: state,
        tone: state.includes('allocated') ? 'ok' : state === 'pending' ? 'progress' : 'muted',
      },
    };
  },
};

export const resourceSlicePrinter: Printer = {
  columns: [column('NODE'), column('DRIVER'), column('POOL'), ageColumn],
  print(object) {
    const spec = obj(object.spec);
    return { cells: [str(spec.nodeName), str(spec.driver), str(obj(spec.pool).name), age(object)] };
  },
};
