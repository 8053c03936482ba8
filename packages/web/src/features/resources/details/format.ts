import { age } from '../../../ui/time.ts';

/** A status condition as every kind writes it (Deployments also keep `lastUpdateTime`, Nodes `lastHeartbeatTime`). */
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
}

/** A LabelSelector object, as workloads, PodDisruptionBudgets and NetworkPolicies write it. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/**
 * Conditions whose `True` is bad news: a reader should see them amber, not green. Kept with the kinds that write
 * them (ReplicaSets, Jobs, HPAs, Nodes, and the ecosystem's custom resources: docs/integrations/).
 */
const troubleWhenTrue = new Set([
  'ReplicaFailure',
  'Failed',
  'FailureTarget',
  'ScalingLimited',
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
  'NetworkUnavailable',
  'Stalled',
  'Reconciling',
  'Denied',
  'InvalidRequest',
  'Fallback',
  'Paused',
  'Drifted',
  'Conflicted',
]);

/** Whether a condition says something is wrong: a trouble condition that holds, or a good one that does not. */
export function conditionTrouble(c: Condition): boolean {
  if (c.status === 'Unknown') return true;
  return troubleWhenTrue.has(c.type) ? c.status === 'True' : c.status === 'False';
}

/** A selector as the terms `kubectl describe` prints (`app=web`, `tier in (a,b)`, `!canary`). */
export function selectorTerms(selector: LabelSelector | Record<string, string> | undefined): string[] {
  if (!selector) return [];
  if (!('matchLabels' in selector) && !('matchExpressions' in selector))
    return Object.entries(selector as Record<string, string>).map(([k, v]) => `${k}=${v}`);
  const s = selector as LabelSelector;
  const terms = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of s.matchExpressions ?? []) {
    const values = (e.values ?? []).join(',');
    if (e.operator === 'In') terms.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') terms.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') terms.push(e.key);
    else if (e.operator === 'DoesNotExist') terms.push(`!${e.key}`);
    else terms.push(`${e.key} ${e.operator} (${values})`);
  }
  return terms;
}

/** An RFC 3339 time as the reader's clock shows it, for a title or a table cell; `—` when absent or unreadable. */
export function exactTime(iso: string | undefined): string {
  const at = Date.parse(iso ?? '');
  return Number.isNaN(at) ? '—' : new Date(at).toLocaleString();
}

/** How long from `start` to `end` (or to `now` while it runs), in the pages' age units; undefined without a start. */
export function duration(start: string | undefined, end?: string, now = Date.now()): string | undefined {
  const from = Date.parse(start ?? '');
  if (Number.isNaN(from)) return undefined;
  const to = end ? Date.parse(end) : now;
  return Number.isNaN(to) ? undefined : age((to - from) / 1000);
}
