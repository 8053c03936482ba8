import type { KubeObject } from '@binnacle/common';

/** Kinds whose updates are machinery, not changes a person made or needs to see. */
const noisyKinds = new Set(['Lease', 'Endpoints', 'EndpointSlice']);
/** ConfigMaps and Secrets used as locks, heartbeats or status boards by controllers. */
const noisyNames = [
  /-lock$/,
  /-lease$/,
  /leader-election/,
  /-heartbeat$/,
  /^cluster-autoscaler-status$/,
  /^kube-root-ca\.crt$/,
];
const noisySecrets = [/-token(-[a-z0-9]{5})?$/, /leader-election/];

/** `store_backlog_full`: streamed while the store refused writes, but never stored (ADR 0073). */
export type DropReason =
  | 'noisy_kind'
  | 'noisy_name'
  | 'no_change'
  | 'already_recorded'
  | 'subscriber_full'
  | 'store_backlog_full';

/**
 * Capture-time filter: returns why an informer event should not become a timeline entry, or undefined to keep
 * it. Only updates are filtered by kind and name — a lock that appears or disappears is still worth a line.
 */
export function noiseReason(
  kind: string,
  object: KubeObject,
  type: 'added' | 'updated' | 'deleted',
): DropReason | undefined {
  if (type !== 'updated') return undefined;
  if (noisyKinds.has(kind)) return 'noisy_kind';
  const name = object.metadata?.name ?? '';
  if (kind === 'ConfigMap' && noisyNames.some((re) => re.test(name))) return 'noisy_name';
  if (kind === 'Secret' && noisySecrets.some((re) => re.test(name))) return 'noisy_name';
  return undefined;
}

/**
 * Name patterns the `default` preset hides (as strings, so SQL and memory stores apply the same rule). They run
 * on `RegExp`, which backtracks: only these constants may reach it (the type of `excludeNames` says so), never a
 * caller's text (ADR 0045).
 */
export const defaultExcludedNames = ['-lock$', '-lease$', 'leader-election', '-heartbeat$'] as const;
export type ExcludedNamePattern = (typeof defaultExcludedNames)[number];
export const defaultExcludedKinds = [...noisyKinds];
