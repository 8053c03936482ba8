import type { ErrorBody, KubeObject } from '@binnacle/common';
import type { AuditSettings } from '../../config/agent-config.ts';
import { type CallerView, countInView, viewReader } from '../../http/caller-view.ts';
import { type ApiResource, resourceKey } from '../../kube/discovery.ts';
import { tierOf } from '../../kube/tiers.ts';
import { certificateReport } from '../../scope/certificates/report.ts';
import { detectPlatform } from '../../scope/platform.ts';
import { customResourceProblems } from './custom-problems.ts';
import { eventTime, recentEvents } from './events.ts';
import { auditProblems, certificateProblems, objectsByKey } from './findings.ts';
import { groupProblems } from './groups.ts';
import type { DashboardContext } from './module.ts';
import { type Problem, podProblem, podState, workloadProblem } from './problems.ts';

const maxProblems = 100;
/** Objects each problem group names; the rest are counted (and the audit or the table lists them). */
const groupObjects = 10;
const warningWindowMs = 3_600_000;

type Status = Record<string, unknown>;
const cond = (o: KubeObject, type: string) =>
  ((o.status?.conditions as Status[] | undefined) ?? []).find((c) => c.type === type)?.status === 'True';
const count = <T>(items: T[], test: (item: T) => boolean) => items.filter(test).length;

/**
 * The first screen: which cluster, what is broken, how much of everything, what just happened. Built from the
 * cache; kinds still loading are named in `loading` and count as zero until they arrive. With a namespace,
 * namespaced kinds are counted in it only (nodes stay cluster-wide). A tunneled caller sees only its view:
 * namespaces where it may list pods, kinds it may list. Problems are runtime health first (then custom resources
 * unhealthy by their project's rules, ADR 0126), then certificates that expired, break within 7 days or cannot
 * be read, then objects with a danger finding of the audit.
 */
export function dashboard(
  ctx: DashboardContext,
  view: CallerView,
  auditSettings: AuditSettings,
  options: { now?: number; at?: number } = {},
) {
  const { cluster } = ctx;
  const { at } = options;
  // Answers 503 until the cluster is connected, instead of a dashboard of zeros.
  cluster.resources();
  const { get, loading, notKept } =
    at === undefined ? { ...viewReader(ctx, view), notKept: undefined } : pastReader(ctx, view, at);
  const now = at ?? options.now ?? Date.now();
  const kinds = kindsOf(get);
  const events = get('', 'Event');
  const { problems, certificates, audit } =
    at === undefined
      ? findProblems(ctx, view, get, kinds, auditSettings, now)
      : {
          problems: [
            ...currentProblems(kinds, runtimeProblems(kinds, now), now),
            ...customResourceProblems(ctx.cluster.cache.resources, get, now, synced(ctx)),
          ],
          certificates: undefined,
          audit: {},
        };
  return {
    ...(at === undefined ? {} : { at: new Date(at).toISOString(), notKept }),
    cluster: {
      name: cluster.target.contextName,
      platform: detectPlatform({
        gitVersion: cluster.version?.gitVersion,
        serverUrl: cluster.target.server.href,
        nodes: kinds.nodes,
        groups: [...new Set(cluster.cache.resources.map((r) => r.group))],
      }),
      version: cluster.version?.gitVersion,
      connected: cluster.state === 'connected',
    },
    health: podHealth(kinds.pods, events, now),
    problems: problems.slice(0, maxProblems),
    problemGroups: groupProblems(problems, groupObjects),
    ...(certificates ? { certificates: certificates.summary } : {}),
    ...('summary' in audit ? { audit: audit.summary } : {}),
    ...('error' in audit && audit.error ? { auditError: audit.error } : {}),
    counts: {
      ...workloadCounts(kinds),
      services: get('', 'Service').length,
      ingresses: get('networking.k8s.io', 'Ingress').length,
      configMaps: get('', 'ConfigMap').length,
      secrets: get('', 'Secret').length,
      namespaces: get('', 'Namespace').length,
    },
    recentEvents: recentEvents(events),
    loading: [...new Set(loading)],
  };
}

interface DashboardKinds {
  pods: KubeObject[];
  deployments: KubeObject[];
  statefulSets: KubeObject[];
  daemonSets: KubeObject[];
  jobs: KubeObject[];
  cronJobs: KubeObject[];
  nodes: KubeObject[];
  pvcs: KubeObject[];
}

const phase = (p: KubeObject) => p.status?.phase;

type Reader = ReturnType<typeof viewReader>['get'];

const kindsOf = (get: Reader): DashboardKinds => ({
  pods: get('', 'Pod'),
  deployments: get('apps', 'Deployment'),
  statefulSets: get('apps', 'StatefulSet'),
  daemonSets: get('apps', 'DaemonSet'),
  jobs: get('batch', 'Job'),
  cronJobs: get('batch', 'CronJob'),
  nodes: get('', 'Node'),
  pvcs: get('', 'PersistentVolumeClaim'),
});

const runtimeProblems = (kinds: DashboardKinds, now: number) =>
  kinds.pods.map((p) => podProblem(p, now)).filter((p): p is Problem => p !== undefined);

/**
 * The caller's view of the cluster as it was at `at` (time travel, ADR 0114): each kind from the history, the
 * kinds whose kept past cannot say (Events, a kind synced since) empty and named in `notKept`.
 */
function pastReader(ctx: DashboardContext, view: CallerView, at: number) {
  ctx.history.refuseUnknown(at);
  const notKept: string[] = [];
  const watched = ctx.cluster.cache.namespaces;
  const namespaces = view.namespaces ?? (watched ? [...watched] : undefined);
  const get = (group: string, kind: string): KubeObject[] => {
    const resource = ctx.cluster.find(group, kind);
    if (!resource || view.hiddenKinds.includes(resource.kind)) return [];
    const objects = ctx.history.listKept(resource, at, resource.namespaced ? namespaces : undefined);
    if (!objects) notKept.push(resourceKey(resource));
    return objects ?? [];
  };
  return { get, loading: [] as string[], notKept };
}

/**
 * Whether the cache holds a kind whole: custom kinds still loading are left out of the problems rather than named
 * in `loading`, where hundreds of CRDs would bury the core kinds the page waits for (the custom tier loads last).
 */
const synced = (ctx: DashboardContext) => (resource: ApiResource) =>
  ctx.cluster.cache.informer(resource)?.synced === true;

/** Runtime health first, then certificates, then danger findings of the audit (each with its summary). */
function findProblems(
  ctx: DashboardContext,
  view: CallerView,
  get: Reader,
  kinds: DashboardKinds,
  auditSettings: AuditSettings,
  now: number,
) {
  const certificates = certificateFindings(ctx, view, get, now);
  const audit = auditFindings(ctx, view, auditSettings, now);
  const problems = [
    ...currentProblems(kinds, runtimeProblems(kinds, now), now),
    ...customResourceProblems(ctx.cluster.cache.resources, get, now, synced(ctx)),
    ...(certificates?.problems ?? []),
    ...('problems' in audit ? audit.problems : []),
  ];
  return { problems, certificates, audit };
}

/**
 * Every problem the dashboard knows of in the caller's view, not cut at the dashboard's 100, with the kinds still
 * loading (their problems come when they do) and why the audit's are missing when it cannot run.
 */
export function clusterProblems(
  ctx: DashboardContext,
  view: CallerView,
  auditSettings: AuditSettings,
  now = Date.now(),
): { problems: Problem[]; loading: string[]; auditError?: ErrorBody } {
  ctx.cluster.resources();
  const { get, loading } = viewReader(ctx, view);
  const { problems, audit } = findProblems(ctx, view, get, kindsOf(get), auditSettings, now);
  return {
    problems,
    loading: [...new Set(loading)],
    ...('error' in audit ? { auditError: audit.error } : {}),
  };
}

/** Pods that fail first, then workloads, nodes and claims that do, at most `maxProblems`. */
function currentProblems(kinds: DashboardKinds, podProblems: Problem[], now: number): Problem[] {
  const { nodes, deployments, statefulSets, daemonSets, jobs, pvcs } = kinds;
  return [
    ...podProblems,
    ...[...nodes, ...deployments, ...statefulSets, ...daemonSets, ...jobs, ...pvcs]
      .map((o) => workloadProblem(o, now))
      .filter((p): p is Problem => p !== undefined),
  ];
}

/** The caller's TLS Secrets (and cert-manager Certificates); undefined when it may not read Secrets or they load. */
function certificateFindings(ctx: DashboardContext, view: CallerView, get: Reader, now: number) {
  const secrets = ctx.cluster.find('', 'Secret');
  if (!secrets || view.hiddenKinds.includes('Secret') || !ctx.cluster.cache.informer(secrets)?.synced) {
    return undefined;
  }
  const tls = get('', 'Secret');
  const certificates = ctx.cluster.find('cert-manager.io', 'Certificate')
    ? get('cert-manager.io', 'Certificate')
    : undefined;
  const report = certificateReport(tls, certificates, now);
  return {
    summary: report.summary,
    problems: certificateProblems(report, objectsByKey([...tls, ...(certificates ?? [])]), now),
  };
}

/**
 * The audit of the caller's view (its tally, ADR 0105); nothing while pods load, and `error` (the agent's 403 or
 * failure to list pods) when it cannot run, so that an API or MCP client tells a refusal from a cluster without
 * findings.
 */
function auditFindings(
  ctx: DashboardContext,
  view: CallerView,
  settings: AuditSettings,
  now: number,
):
  | { summary: Record<'passing' | 'warning' | 'danger', number>; problems: Problem[] }
  | { error?: ErrorBody } {
  const visible = (kind: string) => !view.hiddenKinds.includes(kind);
  const { summary, error } = ctx.audit.attemptSummary(
    { namespaces: view.namespaces, settings },
    visible,
    now,
  );
  if (!summary) return { error };
  const { passing, warning, danger, dangers } = summary;
  return { summary: { passing, warning, danger }, problems: auditProblems(dangers, now) };
}

/**
 * Pods by health: failing by the one definition (ADR 0057), healthy when succeeded or running ready, the rest
 * (starting, pending, running not ready, terminating) with warnings. The status texts of the failing and warning
 * pods are what a link to the pods table filters by.
 */
function podHealth(pods: KubeObject[], events: KubeObject[], now: number) {
  const failing = new Set<string>();
  const warning = new Set<string>();
  let healthy = 0;
  let failingPods = 0;
  for (const pod of pods) {
    const { failing: fails, text } = podState(pod);
    if (fails) {
      failingPods += 1;
      failing.add(text);
    } else if (phase(pod) === 'Succeeded' || (phase(pod) === 'Running' && cond(pod, 'Ready'))) healthy += 1;
    else warning.add(text);
  }
  return {
    healthy,
    warning: pods.length - healthy - failingPods,
    error: failingPods,
    warningEvents: count(
      events,
      (e) => e.type === 'Warning' && now - Date.parse(eventTime(e)) < warningWindowMs,
    ),
    failingStatuses: [...failing].sort(),
    warningStatuses: [...warning].sort(),
  };
}

function workloadCounts({
  pods,
  deployments,
  statefulSets,
  daemonSets,
  jobs,
  cronJobs,
  nodes,
  pvcs,
}: DashboardKinds) {
  return {
    pods: {
      total: pods.length,
      // A failing pod counts as failing only, not also by its phase: the figures add up to the total but for
      // pods in phase Unknown.
      failing: count(pods, (p) => podState(p).failing),
      running: count(pods, (p) => phase(p) === 'Running' && !podState(p).failing),
      pending: count(pods, (p) => phase(p) === 'Pending' && !podState(p).failing),
      succeeded: count(pods, (p) => phase(p) === 'Succeeded'),
    },
    deployments: {
      total: deployments.length,
      available: count(deployments, (d) => cond(d, 'Available')),
      unavailable: count(deployments, (d) => !cond(d, 'Available')),
    },
    statefulSets: {
      total: statefulSets.length,
      ready: count(
        statefulSets,
        (s) => Number(s.status?.readyReplicas ?? 0) >= Number(s.spec?.replicas ?? 1),
      ),
    },
    daemonSets: {
      total: daemonSets.length,
      ready: count(
        daemonSets,
        (d) => Number(d.status?.numberReady ?? 0) >= Number(d.status?.desiredNumberScheduled ?? 0),
      ),
    },
    jobs: {
      total: jobs.length,
      active: count(jobs, (j) => Number(j.status?.active ?? 0) > 0),
      succeeded: count(jobs, (j) => cond(j, 'Complete')),
      failed: count(jobs, (j) => cond(j, 'Failed')),
    },
    cronJobs: { total: cronJobs.length, suspended: count(cronJobs, (c) => c.spec?.suspend === true) },
    nodes: {
      total: nodes.length,
      ready: count(nodes, (n) => cond(n, 'Ready')),
      notReady: count(nodes, (n) => !cond(n, 'Ready')),
    },
    pvcs: {
      total: pvcs.length,
      bound: count(pvcs, (p) => p.status?.phase === 'Bound'),
      pending: count(pvcs, (p) => p.status?.phase === 'Pending'),
    },
  };
}

export interface CrdCount {
  group: string;
  kind: string;
  name: string;
  version: string;
  namespaced: boolean;
  count: number;
}

/** Custom resource kinds with their object counts (in the caller's view), most used first. */
export function crdCounts(ctx: DashboardContext, view: CallerView): { items: CrdCount[]; loading: boolean } {
  const items: CrdCount[] = [];
  let loading = false;
  for (const resource of ctx.cluster.resources()) {
    if (tierOf(resource) === 'custom' && !view.hiddenKinds.includes(resource.kind)) {
      const informer = ctx.cluster.cache.informer(resource);
      if (!informer?.synced) loading = true;
      items.push({
        group: resource.group,
        kind: resource.kind,
        name: resource.plural,
        version: resource.version,
        namespaced: resource.namespaced,
        count: informer?.synced ? countInView(informer, resource.namespaced, view) : 0,
      });
    }
  }
  return { items: items.sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind)), loading };
}
