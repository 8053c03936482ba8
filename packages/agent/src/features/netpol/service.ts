import type { KubeObject } from '@binnacle/common';
import { AppError, badRequest, notFound, parseYamlDocuments, yamlLimits } from '@binnacle/common/server';
import { stringify } from 'yaml';
import { requireAccess } from '../../http/caller.ts';
import type { Impersonation } from '../../kube/client.ts';
import { podWorkload } from '../../scope/metricsdb/workload-pods.ts';
import type { PairsWindow, TrafficPairs } from '../../scope/topology/traffic-edges.ts';
import { trafficWindowOf } from '../../scope/traffic/window.ts';
import { compileSnapshot } from './compile.ts';
import { type FlowLeftOut, type ObservedFlow, observedFlows, type WorkloadPods } from './flows.ts';
import { proposePolicies } from './generate.ts';
import { changedSnapshot, type FlowsImpact, flowsImpact, type PolicyChange } from './impact.ts';
import { type MatrixChange, matrixChange } from './matrix-change.ts';
import type { ClusterSnapshot } from './model.ts';
import type { NetpolContext } from './module.ts';

/** What one question may hold (docs/adr/0122-policy-against-observed-traffic.md). */
export const impactLimits = {
  /** The proposed YAML, in characters. */
  yamlChars: 256 * 1024,
  /** NetworkPolicies proposed or deleted at once. */
  policies: 50,
  /** Namespaces they span: each gets its matrix. */
  namespaces: 5,
  /** Workloads chosen for a proposal. */
  workloads: 200,
};

const dnsLabel = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** A policy a caller names to delete: `<namespace>/<name>`, as the route's document states it. */
export const policyRefPattern = '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?/[a-z0-9]([-.a-z0-9]{0,251}[a-z0-9])?$';
const policyRef = new RegExp(policyRefPattern);
const dnsSubdomain = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The objects an impact reads, from the cache (403 when the agent may not list them, 503 while they load). */
export function snapshotOf(ctx: NetpolContext): ClusterSnapshot {
  const list = (kind: string, group?: string) => ctx.cluster.cache.list(ctx.cluster.resolve(kind, group));
  return {
    namespaces: list('namespaces'),
    pods: list('pods'),
    services: list('services'),
    policies: list('networkpolicies', 'networking.k8s.io'),
  };
}

/** The caller may see the pods and the policies of every namespace the question involves. */
export async function mayEvaluate(
  ctx: NetpolContext,
  caller: Impersonation | undefined,
  namespaces: Iterable<string>,
) {
  for (const namespace of namespaces) {
    await requireAccess(ctx, caller, { verb: 'list', group: '', resource: 'pods', namespace });
    await requireAccess(ctx, caller, {
      verb: 'list',
      group: 'networking.k8s.io',
      resource: 'networkpolicies',
      namespace,
    });
  }
}

/** Each pod under the id the traffic feature gives its workload (`deployment/shop/web`, `pod/shop/lonely`). */
export function workloadPods(ctx: NetpolContext, pods: readonly KubeObject[]): WorkloadPods {
  const byWorkload = new Map<string, KubeObject[]>();
  for (const pod of pods) {
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
    const { kind, name } = podWorkload(ctx, pod);
    const id = `${kind.toLowerCase()}/${pod.metadata?.namespace ?? ''}/${name}`;
    byWorkload.set(id, [...(byWorkload.get(id) ?? []), pod]);
  }
  return byWorkload;
}

/**
 * What the proposed YAML holds is not what the impact takes (a document that is no NetworkPolicy, a malformed
 * policy, too many): 400 `invalid_yaml` naming the document. The request itself is well formed, so not
 * `invalid_request` (the fuzz check `valid_input_taken`).
 */
const invalidPolicy = (message: string) => new AppError('invalid_yaml', message);

/** One proposed NetworkPolicy document, checked for what the impact needs: kind, version, name and namespace. */
function proposedPolicy(doc: unknown, index: number): KubeObject {
  const at = `yaml document ${index + 1}`;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw invalidPolicy(`${at} is not an object`);
  const policy = doc as KubeObject;
  if (policy.kind !== 'NetworkPolicy' || policy.apiVersion !== 'networking.k8s.io/v1')
    throw invalidPolicy(
      `${at} is a ${String(policy.kind)} (${String(policy.apiVersion)}), not a networking.k8s.io/v1 NetworkPolicy`,
    );
  const { name, namespace } = policy.metadata ?? {};
  if (typeof name !== 'string' || !dnsSubdomain.test(name))
    throw invalidPolicy(`${at}: metadata.name "${String(name)}" is not a valid object name`);
  if (typeof namespace !== 'string' || !dnsLabel.test(namespace))
    throw invalidPolicy(
      `${at}: metadata.namespace is required (a namespace name), not "${String(namespace)}"`,
    );
  try {
    compileSnapshot({ namespaces: [], pods: [], services: [], policies: [policy] });
  } catch (error) {
    if (error instanceof AppError) throw invalidPolicy(`${at}: ${error.message}`);
    throw error;
  }
  return policy;
}

export interface ChangeRequest {
  /** New or edited NetworkPolicies, one YAML document each. */
  yaml?: string;
  /** Policies deleted, `namespace/name` each. */
  delete?: string[];
  since?: string;
}

/**
 * The change a request proposes, bounded; every bad input a 400 naming it (`invalid_yaml` for what the YAML holds),
 * a deleted policy not found a 404.
 */
export function changeOf(request: ChangeRequest, snapshot: ClusterSnapshot): PolicyChange {
  const text = request.yaml ?? '';
  if (text.length > impactLimits.yamlChars)
    throw badRequest(`yaml holds ${text.length} characters; at most ${impactLimits.yamlChars}`);
  const docs = parseYamlDocuments(text, yamlLimits.manifests, (i) => `yaml document ${i + 1}`).filter(
    (doc) => doc !== null && doc !== undefined,
  );
  const remove = request.delete ?? [];
  if (docs.length + remove.length === 0)
    throw invalidPolicy('the change is empty: give yaml holding NetworkPolicies, or delete, or both');
  if (docs.length + remove.length > impactLimits.policies)
    throw invalidPolicy(
      `the change names ${docs.length + remove.length} policies; at most ${impactLimits.policies}`,
    );
  const existing = new Set(snapshot.policies.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`));
  for (const [i, ref] of remove.entries()) {
    if (!policyRef.test(ref)) throw badRequest(`delete[${i}] "${ref}" is not <namespace>/<name>`);
    if (!existing.has(ref)) throw notFound(`NetworkPolicy ${ref} not found`);
  }
  return { apply: docs.map(proposedPolicy), remove };
}

const namespacesOf = (change: PolicyChange) => [
  ...new Set([
    ...change.apply.map((p) => p.metadata?.namespace as string),
    ...change.remove.map((ref) => ref.split('/')[0] as string),
  ]),
];

export type TrafficAnswer = ({ available: true } & PairsWindow) | { available: false; reason: string };

export interface ImpactAnswer extends FlowsImpact {
  traffic: TrafficAnswer;
  matrices: MatrixChange[];
}

/** The caller's observed flows of the window with an end in these namespaces, or why there are none. */
async function observed(
  pairs: TrafficPairs,
  caller: Impersonation | undefined,
  namespaces: string[],
  since: string | undefined,
): Promise<{ flows: ObservedFlow[]; traffic: TrafficAnswer }> {
  const answer = await pairs(caller, namespaces, trafficWindowOf(since));
  if ('reason' in answer) return { flows: [], traffic: { available: false, reason: answer.reason } };
  return { flows: observedFlows(answer.pairs), traffic: { available: true, ...answer.window } };
}

/** The impact of a change on the observed flows and on its namespaces' matrices. */
function impactOf(
  snapshot: ClusterSnapshot,
  change: PolicyChange,
  seen: { flows: ObservedFlow[]; traffic: TrafficAnswer },
  workloads: WorkloadPods,
): ImpactAnswer {
  const after = changedSnapshot(snapshot, change);
  return {
    traffic: seen.traffic,
    ...flowsImpact(snapshot, change, seen.flows, workloads),
    matrices: namespacesOf(change).map((ns) => matrixChange(snapshot, after, ns, workloads)),
  };
}

/** What a proposed change of NetworkPolicies does to the flows observed in its namespaces (as the caller). */
export async function policyImpact(
  ctx: NetpolContext,
  pairs: TrafficPairs,
  caller: Impersonation | undefined,
  request: ChangeRequest,
): Promise<ImpactAnswer> {
  trafficWindowOf(request.since);
  const snapshot = snapshotOf(ctx);
  const change = changeOf(request, snapshot);
  const namespaces = namespacesOf(change);
  if (namespaces.length > impactLimits.namespaces)
    throw invalidPolicy(
      `the change spans ${namespaces.length} namespaces; at most ${impactLimits.namespaces}`,
    );
  await mayEvaluate(ctx, caller, namespaces);
  const seen = await observed(pairs, caller, namespaces, request.since);
  return impactOf(snapshot, change, seen, workloadPods(ctx, snapshot.pods));
}

export interface ProposalRequest {
  namespace: string;
  since?: string;
  /** Workload ids (`deployment/<ns>/<name>`) to write policies for; absent: every workload of the namespace. */
  workloads?: string[];
}

export interface ProposalAnswer {
  namespace: string;
  traffic: TrafficAnswer;
  /** The policies as one YAML text, documents separated by `---`; empty without observed traffic. */
  yaml: string;
  policies: KubeObject[];
  skipped: FlowLeftOut[];
  unselectable: string[];
  /** The proposal's impact, as the impact route answers it; absent without observed traffic. */
  impact?: ImpactAnswer;
}

/** Least-privilege NetworkPolicies for a namespace's observed traffic, with their impact (as the caller). */
export async function proposeForNamespace(
  ctx: NetpolContext,
  pairs: TrafficPairs,
  caller: Impersonation | undefined,
  request: ProposalRequest,
): Promise<ProposalAnswer> {
  trafficWindowOf(request.since);
  await mayEvaluate(ctx, caller, [request.namespace]);
  const snapshot = snapshotOf(ctx);
  const workloads = workloadPods(ctx, snapshot.pods);
  const chosen = request.workloads && new Set(request.workloads);
  for (const id of chosen ?? [])
    if (!workloads.has(id) || !id.includes(`/${request.namespace}/`))
      throw notFound(`no workload ${id} with pods in namespace ${request.namespace}`);
  const seen = await observed(pairs, caller, [request.namespace], request.since);
  // Without observed traffic every workload would be isolated: nothing is proposed.
  if (!seen.traffic.available)
    return {
      namespace: request.namespace,
      traffic: seen.traffic,
      yaml: '',
      policies: [],
      skipped: [],
      unselectable: [],
    };
  const proposal = proposePolicies(
    request.namespace,
    seen.flows,
    compileSnapshot(snapshot),
    workloads,
    chosen,
  );
  const yaml = proposal.policies.map((policy) => stringify(policy)).join('---\n');
  const change = { apply: proposal.policies, remove: [] };
  return { ...proposal, traffic: seen.traffic, yaml, impact: impactOf(snapshot, change, seen, workloads) };
}
