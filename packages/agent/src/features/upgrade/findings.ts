import type { ApiLookup } from './lookup.ts';
import { type ReadinessStatus, readinessStatus } from './versions.ts';

export type FindingSource = 'object' | 'helm' | 'gitops' | 'served' | 'apiserver-metrics';

/** One use of a deprecated or removed API version, where it was found and what to move to. */
export interface Finding {
  source: FindingSource;
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
  /** The API server's resource (metrics name resources, not kinds). */
  resource?: string;
  /** The Helm release whose latest revision's manifest holds it. */
  release?: { namespace: string; name: string; revision: number; chart?: string };
  /** The Argo CD Application or Flux Kustomization that applies it. */
  application?: { kind: string; namespace: string; name: string };
  removedIn?: string;
  replacement?: string;
  note?: string;
  status: ReadinessStatus;
}

/** A use found by one source, before the lookup says whether it matters. */
export type Use = Omit<Finding, 'removedIn' | 'replacement' | 'note' | 'status'>;

/** The upgrade between the current release and the target, and what decides each use. */
export interface Judge {
  lookup: ApiLookup;
  current: string;
  target: string;
}

/** A use of a version the lookup knows becomes a finding; any other use is none. */
export function judged(judge: Judge, use: Use): Finding | undefined {
  const removal = judge.lookup(use.apiVersion, use.kind);
  if (!removal) return undefined;
  return { ...use, ...removal, status: readinessStatus(removal.removedIn, judge.current, judge.target) };
}

const statusRank: Record<ReadinessStatus, number> = {
  'already-removed': 0,
  'removed-in-target': 1,
  deprecated: 2,
};

/** Most urgent first, then by where and what. */
export const findingOrder = (a: Finding, b: Finding) =>
  statusRank[a.status] - statusRank[b.status] ||
  a.source.localeCompare(b.source) ||
  (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
  a.kind.localeCompare(b.kind) ||
  (a.name ?? '').localeCompare(b.name ?? '');
