import type { KubeObject } from '@binnacle/common';
import type { Endpoint, EndpointKind, FlowRecord, RawEndpoint, ResolvedFlow } from './model.ts';

/** The cached objects endpoint resolution reads. */
export interface ClusterObjects {
  pods: readonly KubeObject[];
  services: readonly KubeObject[];
  nodes: readonly KubeObject[];
  replicaSets: readonly KubeObject[];
  jobs: readonly KubeObject[];
}

const workloadKinds = new Set<string>([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'ReplicaSet',
]);
/** Kinds as metrics sources spell them (`deployment`, `Deployment`) → the kind of an Endpoint. */
const kindNames = new Map<string, EndpointKind>(
  [...workloadKinds, 'Pod', 'Service', 'Node'].map((kind) => [kind.toLowerCase(), kind as EndpointKind]),
);
const key = (namespace: string | undefined, name: string | undefined) => `${namespace}/${name}`;

export const endpoint = (kind: EndpointKind, name: string, namespace?: string, ip?: string): Endpoint => ({
  id: namespace ? `${kind.toLowerCase()}/${namespace}/${name}` : `${kind.toLowerCase()}/${name}`,
  kind,
  name,
  ...(namespace ? { namespace } : {}),
  ...(ip ? { ip } : {}),
});

const controllerOf = (object: KubeObject) =>
  object.metadata?.ownerReferences?.find((o) => o.controller) ?? object.metadata?.ownerReferences?.[0];

/**
 * Names flow ends after the objects in the agent's cache: a pod (by namespace/name, else by IP) becomes its
 * top-level workload (ReplicaSet → Deployment, Job → CronJob), a Service's cluster IP the Service, a node's
 * address the Node; anything else is External (named by a DNS name the source saw, else its IP).
 */
export class EndpointResolver {
  readonly #pods = new Map<string, KubeObject>();
  readonly #podsByIp = new Map<string, KubeObject>();
  readonly #servicesByIp = new Map<string, KubeObject>();
  readonly #nodesByIp = new Map<string, string>();
  readonly #owners = new Map<string, KubeObject>();
  #workloads?: Map<string, EndpointKind>;

  constructor(objects: ClusterObjects) {
    for (const pod of objects.pods) {
      this.#pods.set(key(pod.metadata?.namespace, pod.metadata?.name), pod);
      const ips = (pod.status?.podIPs as { ip?: string }[] | undefined)?.map((p) => p.ip) ?? [];
      // Host-network pods share their node's IP: the node keeps that address.
      if (pod.spec?.hostNetwork) continue;
      for (const ip of [pod.status?.podIP as string | undefined, ...ips]) if (ip) this.#podsByIp.set(ip, pod);
    }
    for (const service of objects.services) {
      const ips = (service.spec?.clusterIPs as string[] | undefined) ?? [];
      for (const ip of [service.spec?.clusterIP as string | undefined, ...ips])
        if (ip && ip !== 'None') this.#servicesByIp.set(ip, service);
    }
    for (const node of objects.nodes) {
      for (const address of (node.status?.addresses as { address?: string }[] | undefined) ?? [])
        if (address.address) this.#nodesByIp.set(address.address, node.metadata?.name ?? '');
    }
    for (const owner of [...objects.replicaSets, ...objects.jobs])
      this.#owners.set(`${owner.kind}/${key(owner.metadata?.namespace, owner.metadata?.name)}`, owner);
  }

  /** The top-level workload of a pod, or the pod itself when nothing owns it. */
  #ofPod(pod: KubeObject, ip?: string): Endpoint {
    const namespace = pod.metadata?.namespace;
    let ref = controllerOf(pod);
    for (let depth = 0; ref && depth < 3; depth += 1) {
      const owner = this.#owners.get(`${ref.kind}/${key(namespace, ref.name)}`);
      const next = owner && controllerOf(owner);
      if (!next || !workloadKinds.has(next.kind)) break;
      ref = next;
    }
    if (ref && workloadKinds.has(ref.kind))
      return endpoint(ref.kind as EndpointKind, ref.name, namespace, ip);
    return endpoint('Pod', pod.metadata?.name ?? '', namespace, ip);
  }

  /**
   * A workload a metrics source names: the kind it gives, else the kind of the running pods' top-level owner of
   * that name, else Deployment (the usual owner behind Istio's `*_workload` names); a node is a Node.
   */
  named(namespace: string, name: string, kind?: string): Endpoint {
    const given = kind && kindNames.get(kind.toLowerCase());
    if (given === 'Node') return endpoint('Node', name);
    if (given) return endpoint(given, name, namespace);
    this.#workloads ??= new Map(
      [...this.#pods.values()].map((pod) => {
        const end = this.#ofPod(pod);
        return [key(end.namespace, end.name), end.kind] as const;
      }),
    );
    return endpoint(this.#workloads.get(key(namespace, name)) ?? 'Deployment', name, namespace);
  }

  resolve(raw: RawEndpoint): Endpoint {
    if (raw.namespace && raw.pod) {
      const pod = this.#pods.get(key(raw.namespace, raw.pod));
      if (pod) return this.#ofPod(pod, raw.ip);
      const workload = raw.workload;
      if (workload && workloadKinds.has(workload.kind))
        return endpoint(workload.kind as EndpointKind, workload.name, raw.namespace, raw.ip);
      return endpoint('Pod', raw.pod, raw.namespace, raw.ip);
    }
    const ip = raw.ip;
    const pod = ip ? this.#podsByIp.get(ip) : undefined;
    if (pod) return this.#ofPod(pod, ip);
    const service = ip ? this.#servicesByIp.get(ip) : undefined;
    if (service) return endpoint('Service', service.metadata?.name ?? '', service.metadata?.namespace, ip);
    const node = ip ? this.#nodesByIp.get(ip) : undefined;
    if (node) return endpoint('Node', node, undefined, ip);
    const name = raw.names?.[0] ?? ip ?? 'world';
    return { id: `external/${name}`, kind: 'External', name, ...(ip ? { ip } : {}) };
  }

  /** Both ends named, a reply turned around so that every pair reads client → server. */
  flow(record: FlowRecord): ResolvedFlow {
    const source = this.resolve(record.source);
    const destination = this.resolve(record.destination);
    return record.reply
      ? { source: destination, destination: source, record }
      : { source, destination, record };
  }
}
