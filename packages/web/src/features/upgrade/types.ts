import type { Answer } from '../../api/client.ts';
import type { Tone } from '../../ui/Badge.tsx';

/** The agent's upgrade readiness report (`GET /api/upgrade-readiness`, docs/upgrade-readiness.md). */
export type ReadinessReport = Answer<'/api/upgrade-readiness'>;
export type Finding = ReadinessReport['findings'][number];
export type ReadinessStatus = Finding['status'];
export type FindingSource = Finding['source'];

/** The page's URL: the release judged against and a status to keep. */
export interface UpgradeSearch {
  target?: string;
  status?: ReadinessStatus;
}

export const readinessStatuses: readonly ReadinessStatus[] = [
  'already-removed',
  'removed-in-target',
  'deprecated',
];
export const statusTone: Record<ReadinessStatus, Tone> = {
  'already-removed': 'severe',
  'removed-in-target': 'bad',
  deprecated: 'warn',
};
export const statusWord = (status: ReadinessStatus, target: string) =>
  status === 'already-removed'
    ? 'already removed'
    : status === 'removed-in-target'
      ? `removed in ${target}`
      : 'deprecated';

/** The sources in the order the page shows them, each with its heading and what it reads. */
export const sources: readonly { source: FindingSource; title: string; about: string }[] = [
  {
    source: 'object',
    title: 'Live objects',
    about: 'the apiVersion of their last-applied manifest (kubectl apply)',
  },
  { source: 'helm', title: 'Helm releases', about: "each release's latest manifest and hooks" },
  {
    source: 'gitops',
    title: 'GitOps',
    about: "Argo CD Applications' resources and Flux Kustomizations' inventories",
  },
  {
    source: 'served',
    title: 'Served API versions',
    about: "versions discovery advertises and CRDs' deprecated versions",
  },
  {
    source: 'apiserver-metrics',
    title: 'Requests to the API server',
    about: 'clients still calling deprecated APIs (apiserver_requested_deprecated_apis)',
  },
];

const minorOf = (release: string) => Number(release.split('.')[1]);

/** The releases a target may be: the next four minors after the cluster's, and the one asked for. */
export function targetChoices(current: string, target: string): string[] {
  const next = Array.from({ length: 4 }, (_, i) => `1.${minorOf(current) + i + 1}`);
  return next.includes(target) ? next : [target, ...next].sort((a, b) => minorOf(a) - minorOf(b));
}

/**
 * `1.N` as the agent accepts it, else nothing (the agent's default then). The router writes it quoted, a string;
 * a hand-typed `target=1.33` it reads as a number.
 */
export function releaseParam(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && /^1\.\d{1,3}$/.test(text) ? text : undefined;
}
