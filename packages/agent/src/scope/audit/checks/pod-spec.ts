import type { KubeObject } from '@binnacle/common';
import { list, type Obj, obj } from './values.ts';

/** The workload kinds whose pod template the audit reads, with where each keeps it. */
const templatePaths: Record<string, (spec: Obj) => unknown> = {
  Deployment: (spec) => spec.template,
  StatefulSet: (spec) => spec.template,
  DaemonSet: (spec) => spec.template,
  ReplicaSet: (spec) => spec.template,
  ReplicationController: (spec) => spec.template,
  Job: (spec) => spec.template,
  CronJob: (spec) => obj(obj(spec.jobTemplate).spec).template,
};

export const workloadKinds: readonly string[] = Object.keys(templatePaths);
/** Every kind that carries a pod spec: pods and the workloads above. */
export const podKinds: readonly string[] = ['Pod', ...workloadKinds];

/** A pod spec with the metadata its pods get (labels, annotations), whether from a Pod or a workload's template. */
export interface PodTemplate {
  metadata: Obj;
  spec: Obj;
}

export function podTemplateOf(object: KubeObject): PodTemplate | undefined {
  if (object.kind === 'Pod') return { metadata: obj(object.metadata), spec: obj(object.spec) };
  const path = templatePaths[object.kind ?? ''];
  if (!path) return undefined;
  const template = obj(path(obj(object.spec)));
  return { metadata: obj(template.metadata), spec: obj(template.spec) };
}

/** The pod spec of a Pod or of a workload's pod template; undefined for other kinds. */
export const podSpecOf = (object: KubeObject): Obj | undefined => podTemplateOf(object)?.spec;

/**
 * Whether a workload controller owns the object: a Pod of a ReplicaSet, StatefulSet, DaemonSet, Job or
 * ReplicationController, a ReplicaSet of a Deployment, a Job of a CronJob. The audit reports pod-spec findings
 * on the owner, where they are fixed, not again on every pod or revision it made. Objects that other kinds own
 * (a static pod's Node, an operator's custom resource) are not workloads we read, so they are checked themselves.
 */
export function ownedByWorkload(object: KubeObject): boolean {
  const owners = object.metadata?.ownerReferences ?? [];
  const controller = owners.find((owner) => owner.controller) ?? owners[0];
  return controller !== undefined && workloadKinds.includes(controller.kind);
}

export type ContainerKind = 'container' | 'init' | 'ephemeral';

export interface ContainerView {
  name: string;
  kind: ContainerKind;
  /** The container as written. */
  spec: Obj;
  /** Its securityContext ({} when unset). */
  securityContext: Obj;
}

/**
 * Which containers a check reads: `all` (security: init and ephemeral containers run with the pod's access),
 * `images` (regular and init containers: ephemeral ones are debugging sessions), `main` (regular containers
 * only: probes and resources). Init containers that run as sidecars (`restartPolicy: Always`) count as main.
 */
export type ContainerSet = 'all' | 'images' | 'main';

const sidecar = (c: Obj) => c.restartPolicy === 'Always';

export function containersOf(spec: Obj, set: ContainerSet): ContainerView[] {
  const view = (kind: ContainerKind) => (c: Obj) => ({
    name: String(c.name ?? ''),
    kind,
    spec: c,
    securityContext: obj(c.securityContext),
  });
  const init = list(spec.initContainers);
  const main = [...list(spec.containers).map(view('container')), ...init.filter(sidecar).map(view('init'))];
  if (set === 'main') return main;
  const rest = init.filter((c) => !sidecar(c)).map(view('init'));
  if (set === 'images') return [...main, ...rest];
  return [...main, ...rest, ...list(spec.ephemeralContainers).map(view('ephemeral'))];
}

/** A container's security setting, else the pod's (runAsUser, runAsNonRoot, seccompProfile, …). */
export const effective = (container: ContainerView, pod: Obj, field: string): unknown =>
  container.securityContext[field] ?? obj(pod.securityContext)[field];

/** Pods that run to completion (Jobs, CronJobs, pods that never restart) need no probes or spreading. */
export function runsToCompletion(object: KubeObject, spec: Obj): boolean {
  return object.kind === 'Job' || object.kind === 'CronJob' || (spec.restartPolicy ?? 'Always') !== 'Always';
}
