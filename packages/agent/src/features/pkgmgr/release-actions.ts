import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, parseYaml, yamlLimits } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { releaseRevision, releaseRevisions } from '../../scope/helm-history.ts';
import {
  type ReleaseDecoder,
  type ReleaseSummary,
  type StoredRelease,
  summarizeRelease,
} from '../../scope/helm-releases.ts';
import type { ChartSources } from './chart-sources.ts';
import { helmTimeoutSeconds, runHelm } from './helm-cli.ts';
import type { PkgmgrContext } from './module.ts';
import { unifiedDiff } from './release-detail.ts';
import { upgradeInfo } from './upgrades.ts';

export type Values = Record<string, unknown>;
/** Values as a request may carry them: an object, or YAML text as a user types it in an editor. */
export type ValuesInput = Values | string;

export interface InstallRequest {
  releaseName: string;
  namespace: string;
  chartName: string;
  version: string;
  repository: string;
  values?: ValuesInput;
  createNamespace?: boolean;
}

export interface UpgradeRequest {
  /** The chart version to move to (default: the installed one, for a values change). */
  version?: string;
  /** Where to find it (default: the source upgrade-info names). */
  repository?: string;
  /** Another chart of the source (default: the release's own chart). */
  chartName?: string;
  values?: ValuesInput;
  /** Keep the release's values and merge `values` over them (default: `values` replace them; none given: kept). */
  reuseValues?: boolean;
}

export interface HelmProgress {
  phase: string;
  message: string;
  detail?: string;
}

/** Who asks and what may stop or watch the run. */
export interface HelmRun {
  ctx: PkgmgrContext;
  sources: ChartSources;
  decoder: ReleaseDecoder;
  caller?: Impersonation;
  /** The client went away: stop helm. */
  signal?: AbortSignal;
  progress?: (progress: HelmProgress) => void;
}

/** A checked helm invocation: every 4xx the request can earn has been raised before helm runs. */
export interface HelmPlan {
  action: 'install' | 'upgrade' | 'rollback' | 'uninstall';
  namespace: string;
  name: string;
  args: string[];
  values?: Values;
  /** What runs, in words (the first progress message, the session's target, the audit line). */
  description: string;
  /** A rollback's target revision: its chart is what the release runs afterwards. */
  rollbackTo?: StoredRelease;
}

/** The request's values as a map; YAML that does not parse, or is not a map, is 400 `invalid_yaml`. */
export function parseValues(input: ValuesInput | undefined): Values | undefined {
  if (input === undefined || typeof input === 'object') return input;
  const parsed = parseYaml(input, yamlLimits.values, 'values');
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new AppError('invalid_yaml', 'values must be a YAML map (key: value), not a list or a scalar');
  return parsed as Values;
}

const pending = (release: StoredRelease) => (release.info?.status ?? '').startsWith('pending-');

function currentRelease(run: HelmRun, namespace: string, name: string): StoredRelease {
  const newest = releaseRevision(releaseRevisions(run.ctx, run.decoder, namespace, name));
  if (pending(newest))
    throw new AppError(
      'conflict',
      `release ${namespace}/${name} is ${newest.info?.status} (revision ${newest.version}): another operation is in progress; wait for it or roll back`,
    );
  return newest;
}

const waitArgs = ['--wait', '--timeout', `${helmTimeoutSeconds}s`];

export async function planInstall(run: HelmRun, request: InstallRequest): Promise<HelmPlan> {
  const { releaseName: name, namespace, chartName, version, repository } = request;
  // The caller's values are checked before any chart source is asked (ADR 0046).
  const values = parseValues(request.values) ?? {};
  await run.sources.version(repository, chartName, version);
  const existing = run.ctx.cluster.cache
    .list(run.ctx.cluster.resolve('secrets'), namespace)
    .some((secret) => secret.type === 'helm.sh/release.v1' && secret.metadata?.labels?.name === name);
  if (existing)
    throw new AppError('already_exists', `release ${namespace}/${name} exists already: upgrade it instead`);
  return {
    action: 'install',
    namespace,
    name,
    args: [
      'install',
      name,
      ...run.sources.helmChartArgs(repository, chartName, version),
      '--namespace',
      namespace,
      ...(request.createNamespace ? ['--create-namespace'] : []),
      ...waitArgs,
    ],
    values,
    description: `install ${repository}/${chartName} ${version} as ${namespace}/${name}`,
  };
}

export async function planUpgrade(
  run: HelmRun,
  namespace: string,
  name: string,
  request: UpgradeRequest,
): Promise<HelmPlan> {
  const values = parseValues(request.values);
  const current = summarizeRelease(currentRelease(run, namespace, name));
  const chartName = request.chartName ?? current.chart;
  const version = request.version ?? current.chartVersion;
  let repository = request.repository;
  if (!repository) {
    const info = await upgradeInfo(run.sources, { chart: chartName, chartVersion: current.chartVersion });
    if (!info.repositoryName)
      throw new AppError(
        'not_found',
        `no chart source for ${namespace}/${name}: ${info.error}; name a repository`,
      );
    repository = info.repositoryName;
  }
  await run.sources.version(repository, chartName, version);
  return {
    action: 'upgrade',
    namespace,
    name,
    args: [
      'upgrade',
      name,
      ...run.sources.helmChartArgs(repository, chartName, version),
      '--namespace',
      namespace,
      ...(values === undefined || request.reuseValues ? ['--reuse-values'] : []),
      ...waitArgs,
    ],
    values,
    description: `upgrade ${namespace}/${name} from ${current.chart} ${current.chartVersion} to ${repository}/${chartName} ${version}`,
  };
}

export function planRollback(run: HelmRun, namespace: string, name: string, revision?: number): HelmPlan {
  const revisions = releaseRevisions(run.ctx, run.decoder, namespace, name);
  const newest = currentRelease(run, namespace, name);
  const target = revision ?? revisions.filter((r) => r.version < newest.version).at(-1)?.version;
  if (target === undefined)
    throw new AppError(
      'invalid_request',
      `release ${namespace}/${name} has one revision: there is none to roll back to`,
    );
  const rollbackTo = releaseRevision(revisions, target);
  return {
    rollbackTo,
    action: 'rollback',
    namespace,
    name,
    args: ['rollback', name, String(target), '--namespace', namespace, ...waitArgs],
    description: `roll back ${namespace}/${name} from revision ${newest.version} to ${target}`,
  };
}

/** helm uninstall of a release that is there (whatever its state: uninstalling is how a stuck one is cleared). */
export function planUninstall(run: HelmRun, namespace: string, name: string): HelmPlan {
  releaseRevisions(run.ctx, run.decoder, namespace, name);
  return {
    action: 'uninstall',
    namespace,
    name,
    args: ['uninstall', name, '--namespace', namespace, ...waitArgs],
    description: `uninstall ${namespace}/${name}`,
  };
}

/**
 * helm's `--debug` lines (slog text) as progress: the phase by what the line is about, its message, the other
 * attributes (shortened) as detail. Lines that dump HTTP exchanges (`header=`, which can carry a registry's
 * credentials) are never passed on.
 */
export function progressOf(line: string): HelmProgress | undefined {
  if (/\bheader=/.test(line)) return undefined;
  const match = /\bmsg=("(?:[^"\\]|\\.)*"|\S+)/.exec(line);
  const message = match ? (match[1] ?? '').replace(/^"|"$/g, '').replace(/\\"/g, '"') : line.trim();
  const attributes = match
    ? line
        .replace(match[0], '')
        .replace(/\b(time|level)=\S+/g, '')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
  const phases: [RegExp, string][] = [
    [/hook/i, 'hooks'],
    [/wait|ready|watch|status/i, 'waiting'],
    [/creat|apply|patch|updat|replac|delet|roll/i, 'applying'],
    [/pull|download|fetch|load|chart|depend|repo|cache/i, 'fetching'],
    [/render|template|manifest|values|schema/i, 'rendering'],
  ];
  const phase = phases.find(([pattern]) => pattern.test(message))?.[1] ?? 'running';
  const detail = attributes.length > 300 ? `${attributes.slice(0, 299)}…` : attributes;
  return { phase, message, ...(detail ? { detail } : {}) };
}

/** The release JSON helm prints with `--output json` (after the `Pulled:`/`Digest:` lines of an OCI pull). */
function releaseFromOutput(stdout: string): StoredRelease {
  const start = stdout.search(/^\{/m);
  try {
    if (start === -1) throw new Error('no JSON object');
    return JSON.parse(stdout.slice(start)) as StoredRelease;
  } catch (error) {
    throw new AppError('cluster_error', `helm printed no release: ${(error as Error).message}`);
  }
}

/** Runs `use` with helm's `--values` flag for a private temporary file holding the values (removed after). */
async function withValuesFile<T>(
  ctx: PkgmgrContext,
  values: Values | undefined,
  use: (valuesArgs: string[]) => Promise<T>,
): Promise<T> {
  if (values === undefined) return use([]);
  const dir = join(ctx.config.dataDir, 'helm', 'tmp');
  const file = join(dir, `values-${randomUUID()}.json`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(file, JSON.stringify(values), { mode: 0o600 });
    return await use(['--values', file]);
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * Runs a plan as the caller: helm's progress to the sink, the run listed in /api/sessions (ending it stops helm)
 * and stopped when the client goes away; helm leaves a stopped release in a state it can roll back or
 * uninstall. Resolves with the release as helm left it (none after an uninstall).
 */
export async function executePlan(run: HelmRun, plan: HelmPlan): Promise<ReleaseSummary | undefined> {
  const { ctx } = run;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  run.signal?.addEventListener('abort', onAbort, { once: true });
  if (run.signal?.aborted) stop.abort();
  const session = ctx.sessions.open('helm', plan.description, () => stop.abort());
  const helm = (args: string[]) =>
    runHelm(ctx, args, {
      as: run.caller,
      signal: stop.signal,
      onLine:
        run.progress &&
        ((line) => {
          const progress = progressOf(line);
          if (progress) run.progress?.(progress);
        }),
    });
  try {
    run.progress?.({ phase: 'starting', message: plan.description });
    if (plan.action === 'uninstall') {
      await helm([...plan.args, '--debug']);
      return undefined;
    }
    if (plan.rollbackTo) {
      // `helm rollback` prints no release and `helm status` omits the chart: it is the target revision's.
      await helm([...plan.args, '--debug']);
      const status = await helm(['status', plan.name, '--namespace', plan.namespace, '--output', 'json']);
      return summarizeRelease({ ...releaseFromOutput(status), chart: plan.rollbackTo.chart });
    }
    const output = await withValuesFile(ctx, plan.values, (valuesArgs) =>
      helm([...plan.args, ...valuesArgs, '--debug', '--output', 'json']),
    );
    return summarizeRelease(releaseFromOutput(output));
  } finally {
    run.signal?.removeEventListener('abort', onAbort);
    session.end();
  }
}

/**
 * What a values change would do, rendered by helm without applying it (`--dry-run=server`): the user-supplied
 * values before and after, and a unified diff of the release's manifest.
 */
export async function previewValues(
  run: HelmRun,
  namespace: string,
  name: string,
  values: ValuesInput,
): Promise<{ currentValues: Values; newValues: Values; manifestDiff: string }> {
  const current = currentRelease(run, namespace, name);
  const plan = await planUpgrade(run, namespace, name, { values });
  const args = [...plan.args.filter((a) => !waitArgs.includes(a)), '--dry-run=server', '--output', 'json'];
  const output = await withValuesFile(run.ctx, plan.values, (valuesArgs) =>
    runHelm(run.ctx, [...args, ...valuesArgs], { as: run.caller, signal: run.signal }),
  );
  const rendered = releaseFromOutput(output);
  return {
    currentValues: current.config ?? {},
    newValues: plan.values ?? {},
    manifestDiff: unifiedDiff(
      `revision ${current.version}`,
      'with the new values',
      current.manifest ?? '',
      rendered.manifest ?? '',
    ),
  };
}
