import type { KubeObject } from '@binnacle/common';
import { AppError, badRequest, parseYamlDocuments, yamlLimits } from '@binnacle/common/server';
import { createTwoFilesPatch } from 'diff';
import { requireAccess } from '../../http/caller.ts';
import type { Impersonation } from '../../kube/client.ts';
import { splitApiVersion } from '../../kube/discovery.ts';
import { type LiveHealth, liveHealth } from '../../kube/live-health.ts';
import {
  isReleaseSecret,
  type ReleaseDecoder,
  type StoredRelease,
  summarizeRelease,
} from '../../scope/helm-releases.ts';
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

export interface ReleaseResource {
  kind: string;
  apiVersion: string;
  namespace?: string;
  name: string;
  /** The object's health from the cache; `missing` when the cache does not hold it, `unknown` for kinds it does not cache. */
  status: LiveHealth;
}

export interface ReleaseHook {
  name: string;
  kind: string;
  events: string[];
  weight: number;
  /** The phase of its last run (Succeeded, Failed, Running), or `unknown` if it never ran. */
  status: string;
}

/** Every stored revision of a release, oldest first; 404 when there is none. */
export function releaseRevisions(
  ctx: PkgmgrContext,
  decoder: ReleaseDecoder,
  namespace: string,
  name: string,
): StoredRelease[] {
  const secrets = ctx.cluster.cache
    .list(ctx.cluster.resolve('secrets'), namespace)
    .filter((s) => isReleaseSecret(s) && s.metadata?.labels?.name === name);
  if (secrets.length === 0) throw new AppError('not_found', `no Helm release ${namespace}/${name}`);
  return secrets.map((s) => decoder.decode(s)).sort((a, b) => a.version - b.version);
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

/** One revision of a release (the newest without `revision`); 404 naming the revisions there are. */
export function releaseRevision(revisions: StoredRelease[], revision?: number): StoredRelease {
  const newest = revisions.at(-1) as StoredRelease;
  if (revision === undefined) return newest;
  const found = revisions.find((r) => r.version === revision);
  if (!found)
    throw new AppError(
      'not_found',
      `release ${newest.namespace}/${newest.name} has no revision ${revision} (it has ${revisions.map((r) => r.version).join(', ')})`,
    );
  return found;
}

/** The objects a manifest names, each looked up in the cache for its health. */
export function manifestResources(ctx: PkgmgrContext, release: StoredRelease): ReleaseResource[] {
  const out: ReleaseResource[] = [];
  for (const doc of parseYamlDocuments(release.manifest ?? '', yamlLimits.stored)) {
    const object = doc as KubeObject | null;
    if (!object?.kind || !object.metadata?.name) continue;
    const apiVersion = object.apiVersion ?? 'v1';
    const live = liveHealth(ctx.cluster, {
      group: splitApiVersion(apiVersion).group,
      kind: object.kind,
      name: object.metadata.name,
      namespace: object.metadata.namespace ?? release.namespace,
    });
    out.push({
      kind: object.kind,
      apiVersion,
      namespace: live.namespace,
      name: object.metadata.name,
      status: live.status,
    });
  }
  return out;
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
