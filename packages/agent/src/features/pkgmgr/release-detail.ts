import { badRequest } from '@binnacle/common/server';
import { createTwoFilesPatch } from 'diff';
import { requireAccess } from '../../http/caller.ts';
import type { Impersonation } from '../../kube/client.ts';
import { manifestResources, releaseRevision, releaseRevisions } from '../../scope/helm-history.ts';
import { type ReleaseDecoder, type StoredRelease, summarizeRelease } from '../../scope/helm-releases.ts';
import type { PkgmgrContext } from './module.ts';

export interface ReleaseRevision {
  revision: number;
  status: string;
  chart: string;
  chartVersion: string;
  appVersion?: string;
  description?: string;
  updated?: string;
}

export interface ReleaseHook {
  name: string;
  kind: string;
  events: string[];
  weight: number;
  /** The phase of its last run (Succeeded, Failed, Running), or `unknown` if it never ran. */
  status: string;
}

/** A release's revisions for a caller who may list Secrets in its namespace (which Helm needs to read it); 403 otherwise. */
export async function releaseRevisionsFor(
  ctx: PkgmgrContext,
  decoder: ReleaseDecoder,
  caller: Impersonation | undefined,
  namespace: string,
  name: string,
): Promise<StoredRelease[]> {
  await requireAccess(ctx, caller, { verb: 'list', group: '', resource: 'secrets', namespace });
  return releaseRevisions(ctx, decoder, namespace, name);
}

const revisionOf = (release: StoredRelease): ReleaseRevision => {
  const { revision, status, chart, chartVersion, appVersion, description, updated } =
    summarizeRelease(release);
  return { revision, status, chart, chartVersion, appVersion, description, updated };
};

/** A release's newest revision with its history, the objects it manages and their health, hooks and notes. */
export function releaseDetail(ctx: PkgmgrContext, revisions: StoredRelease[]) {
  const release = releaseRevision(revisions);
  const hooks = (release.hooks ?? []).map(
    (hook): ReleaseHook => ({
      name: hook.name ?? '',
      kind: hook.kind ?? '',
      events: hook.events ?? [],
      weight: hook.weight ?? 0,
      status: hook.last_run?.phase || 'unknown',
    }),
  );
  const dependencies = (release.chart?.metadata?.dependencies ?? []).map((d) => ({
    name: d.name ?? '',
    version: d.version ?? '',
    repository: d.repository,
  }));
  return {
    ...summarizeRelease(release),
    notes: release.info?.notes ?? '',
    history: revisions.map(revisionOf).reverse(),
    resources: manifestResources(ctx, release),
    hooks,
    dependencies,
  };
}

type Values = Record<string, unknown>;
const isMap = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The values a chart renders with, as Helm coalesces them: what the user supplied over the chart's defaults,
 * maps merged key by key, anything else replaced, and a user's `null` removing the default.
 */
export function coalesceValues(defaults: Values, supplied: Values): Values {
  const out: Values = { ...defaults };
  for (const [key, value] of Object.entries(supplied)) {
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(out[key])) out[key] = coalesceValues(out[key] as Values, value);
    else out[key] = value;
  }
  return out;
}

/** The user-supplied values of a revision, and with `all` the computed ones (chart defaults coalesced). */
export function releaseValues(release: StoredRelease, all: boolean) {
  const userSupplied = release.config ?? {};
  const defaults = release.chart?.values ?? {};
  return {
    revision: release.version,
    userSupplied,
    ...(all ? { computed: coalesceValues(defaults, userSupplied) } : {}),
  };
}

/** A unified diff of two revisions' manifests (by default the one before the newest and the newest). */
export function releaseDiff(revisions: StoredRelease[], revision1?: number, revision2?: number) {
  const newest = releaseRevision(revisions);
  const second = releaseRevision(revisions, revision2 ?? newest.version);
  const firstNumber = revision1 ?? revisions.filter((r) => r.version < second.version).at(-1)?.version;
  if (firstNumber === undefined)
    throw badRequest(
      `release ${newest.namespace}/${newest.name} has one revision: name revision1 to compare with`,
    );
  const first = releaseRevision(revisions, firstNumber);
  const diff = unifiedDiff(
    `revision ${first.version}`,
    `revision ${second.version}`,
    first.manifest ?? '',
    second.manifest ?? '',
  );
  return { revision1: first.version, revision2: second.version, diff };
}

/** A unified diff of two texts with three lines of context (empty when they are equal). */
export function unifiedDiff(nameA: string, nameB: string, a: string, b: string): string {
  if (a === b) return '';
  return createTwoFilesPatch(nameA, nameB, a, b, undefined, undefined, { context: 3 });
}
