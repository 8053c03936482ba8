import type { KubeObject } from '@binnacle/common';
import { AppError, badRequest, notFound } from '@binnacle/common/server';
import { type LabelMatcher, type LabelSelector, type Labels, selectorMatcher } from '../../kube/selectors.ts';
import { type Cidr, cidrContains, cidrStrictlyWithin, type IpAddress, parseCidr, parseIp } from './cidr.ts';
import { type ClusterSnapshot, type ObjectRef, type Protocol, protocols } from './model.ts';

const namespaceNameLabel = 'kubernetes.io/metadata.name';

export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

const keyOf = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

interface ContainerPort {
  name?: string;
  port: number;
  protocol: Protocol;
}

/** A party to a connection as policies see it: a pod (of the snapshot or hypothetical) or an outside address. */
export interface Endpoint {
  /** How sentences name it: `x/a`, `203.0.113.9`, `a pod {app=web} in x`. */
  text: string;
  /** Pods only; an outside address has none, so no selector peer can match it. */
  namespace?: string;
  name?: string;
  labels?: Labels;
  namespaceLabels?: Labels;
  ips: IpAddress[];
  hostNetwork: boolean;
  /** What named ports resolve against when the endpoint is the destination. */
  containerPorts: ContainerPort[];
}

interface CompiledPeer {
  matches: (endpoint: Endpoint) => boolean;
  /** An ipBlock's cidr and except blocks: where a source block has to be cut to be judged address by address. */
  blocks?: Cidr[];
}

/** A rule's port entry: a protocol with all ports, a numeric range, or a named port. */
export interface CompiledPort {
  protocol: Protocol;
  from?: number;
  to?: number;
  name?: string;
}

/** Peers or ports absent (or empty) mean "all", as the API says. */
export interface CompiledRule {
  peers?: CompiledPeer[];
  ports?: CompiledPort[];
}

export interface CompiledPolicy {
  key: string;
  namespace: string;
  selects: LabelMatcher;
  /** Present only when the policy's types include the direction; then an empty list isolates and allows none. */
  ingress?: CompiledRule[];
  egress?: CompiledRule[];
}

export interface CompiledSnapshot {
  policies: CompiledPolicy[];
  namespaceLabels: (namespace: string) => Record<string, string>;
  pods: Map<string, KubeObject>;
  services: Map<string, KubeObject>;
}

/** Runs a selector's compilation, naming the field in the 400 an unknown operator raises. */
function matcherAt(selector: unknown, field: string): LabelMatcher {
  if (!selector || typeof selector !== 'object' || Array.isArray(selector))
    throw badRequest(`${field} is not a label selector object`);
  try {
    return selectorMatcher(selector as LabelSelector);
  } catch (error) {
    if (error instanceof AppError) throw error.withContext(field);
    throw error;
  }
}

export function checkProtocol(value: unknown, field: string): Protocol {
  if (protocols.includes(value as Protocol)) return value as Protocol;
  throw badRequest(`${field} "${String(value)}" is not one of ${protocols.join(', ')}`);
}

export function checkPortNumber(value: unknown, field: string): number {
  if (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535) return value as number;
  throw badRequest(`${field} ${JSON.stringify(value)} is not a port number (1-65535)`);
}

// IANA_SVC_NAME, what the API accepts as a named port: at most 15 lowercase letters, digits and single inner
// dashes, with at least one letter (so "80" written as a string is refused rather than taken as a name).
const isPortName = (name: string) =>
  name.length <= 15 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) && /[a-z]/.test(name);

function compilePort(raw: Obj, field: string): CompiledPort {
  const protocol = raw.protocol === undefined ? 'TCP' : checkProtocol(raw.protocol, `${field}.protocol`);
  const { port, endPort } = raw;
  if (port === undefined) {
    if (endPort !== undefined) throw badRequest(`${field}.endPort needs a numeric port`);
    return { protocol };
  }
  if (typeof port === 'string') {
    if (!isPortName(port))
      throw badRequest(`${field}.port "${port}" is neither a port number nor a valid port name`);
    if (endPort !== undefined) throw badRequest(`${field}.endPort cannot go with the named port "${port}"`);
    return { protocol, name: port };
  }
  const from = checkPortNumber(port, `${field}.port`);
  const to = endPort === undefined ? from : checkPortNumber(endPort, `${field}.endPort`);
  if (to < from) throw badRequest(`${field}.endPort ${to} is below port ${from}`);
  return { protocol, from, to };
}

function cidrAt(text: unknown, field: string): Cidr {
  const cidr = typeof text === 'string' ? parseCidr(text) : undefined;
  if (!cidr) throw badRequest(`${field} "${String(text)}" is not a valid CIDR`);
  return cidr;
}

function compileIpBlock(raw: Obj, field: string): CompiledPeer {
  const cidr = cidrAt(raw.cidr, `${field}.cidr`);
  const except = list(raw.except).map((text, i) => {
    const at = `${field}.except[${i}]`;
    const inner = cidrAt(text, at);
    if (!cidrStrictlyWithin(inner, cidr))
      throw badRequest(`${at} "${String(text)}" is not a strict subset of cidr "${String(raw.cidr)}"`);
    return inner;
  });
  return {
    matches: (e) =>
      e.ips.some((ip) => cidrContains(cidr, ip) && !except.some((block) => cidrContains(block, ip))),
    blocks: [cidr, ...except],
  };
}

function compilePeer(raw: Obj, field: string, policyNamespace: string): CompiledPeer {
  // A null field is an absent one, as Go decodes it into a nil pointer.
  const { podSelector, namespaceSelector, ipBlock } = raw;
  if (ipBlock != null) {
    if (podSelector != null || namespaceSelector != null)
      throw badRequest(`${field}: ipBlock cannot be combined with podSelector or namespaceSelector`);
    return compileIpBlock(obj(ipBlock), `${field}.ipBlock`);
  }
  if (podSelector == null && namespaceSelector == null)
    throw badRequest(`${field} names no peer: set podSelector, namespaceSelector or ipBlock`);
  const pods = podSelector == null ? () => true : matcherAt(podSelector, `${field}.podSelector`);
  const namespaces =
    namespaceSelector == null ? undefined : matcherAt(namespaceSelector, `${field}.namespaceSelector`);
  // Host-network pods are matched as their node's address (by ipBlock) and never by selectors: the spec leaves
  // this open, and it is what most plugins do.
  return {
    matches: (e) =>
      e.namespace !== undefined &&
      !e.hostNetwork &&
      (namespaces ? namespaces(e.namespaceLabels) : e.namespace === policyNamespace) &&
      pods(e.labels),
  };
}

function compileRules(
  raw: unknown,
  field: string,
  peerKey: 'from' | 'to',
  namespace: string,
): CompiledRule[] {
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) throw badRequest(`${field} is not a list`);
  return list(raw).map((rule, r) => {
    const peers = list(rule[peerKey]).map((peer, p) =>
      compilePeer(obj(peer), `${field}[${r}].${peerKey}[${p}]`, namespace),
    );
    const ports = list(rule.ports).map((port, p) => compilePort(obj(port), `${field}[${r}].ports[${p}]`));
    return { ...(peers.length ? { peers } : {}), ...(ports.length ? { ports } : {}) };
  });
}

/**
 * The policy's directions. Without policyTypes (or with an empty list) the API server defaults them: Ingress
 * always, Egress only when the egress list has rules, so `egress: []` alone isolates nothing.
 */
function policyTypesOf(spec: Obj, field: string): { ingress: boolean; egress: boolean } {
  if (spec.policyTypes != null && !Array.isArray(spec.policyTypes))
    throw badRequest(`${field}.policyTypes is not a list`);
  const types: unknown[] = spec.policyTypes ?? [];
  if (types.length === 0) return { ingress: true, egress: list(spec.egress).length > 0 };
  for (const [i, type] of types.entries())
    if (type !== 'Ingress' && type !== 'Egress')
      throw badRequest(`${field}.policyTypes[${i}] "${String(type)}" is not Ingress or Egress`);
  return { ingress: types.includes('Ingress'), egress: types.includes('Egress') };
}

function compilePolicy(policy: KubeObject): CompiledPolicy {
  const key = keyOf(policy);
  const namespace = policy.metadata?.namespace ?? '';
  const field = `NetworkPolicy ${key}: spec`;
  const spec = obj(policy.spec);
  const types = policyTypesOf(spec, field);
  return {
    key,
    namespace,
    // podSelector is a required struct, not a pointer: a missing one is the empty selector, all pods.
    selects: matcherAt(spec.podSelector ?? {}, `${field}.podSelector`),
    ...(types.ingress ? { ingress: compileRules(spec.ingress, `${field}.ingress`, 'from', namespace) } : {}),
    ...(types.egress ? { egress: compileRules(spec.egress, `${field}.egress`, 'to', namespace) } : {}),
  };
}

function containerPortsOf(pod: KubeObject): ContainerPort[] {
  const spec = obj(pod.spec);
  // Sidecars (restartable init containers) serve ports for the pod's lifetime like ordinary containers.
  const sidecars = list(spec.initContainers).filter((c) => c.restartPolicy === 'Always');
  return [...list(spec.containers), ...sidecars].flatMap((c) =>
    list(c.ports).map((p) => ({
      ...(typeof p.name === 'string' ? { name: p.name } : {}),
      port: Number(p.containerPort),
      protocol: (p.protocol ?? 'TCP') as Protocol,
    })),
  );
}

function podIps(pod: KubeObject): IpAddress[] {
  const status = obj(pod.status);
  const texts = list(status.podIPs).map((entry) => entry.ip);
  if (texts.length === 0) texts.push(status.podIP);
  // Pod addresses come from the cluster, not the caller: an unreadable one is simply not matched.
  return texts.flatMap((text) => {
    const ip = typeof text === 'string' ? parseIp(text) : undefined;
    return ip ? [ip] : [];
  });
}

export function podEndpoint(pod: KubeObject, compiled: CompiledSnapshot): Endpoint {
  const namespace = pod.metadata?.namespace ?? '';
  return {
    text: keyOf(pod),
    namespace,
    name: pod.metadata?.name ?? '',
    labels: pod.metadata?.labels ?? {},
    namespaceLabels: compiled.namespaceLabels(namespace),
    ips: podIps(pod),
    hostNetwork: obj(pod.spec).hostNetwork === true,
    containerPorts: containerPortsOf(pod),
  };
}

/** Every ipBlock's cidr and except blocks, of every policy. */
export function policyBlocks(compiled: CompiledSnapshot): Cidr[] {
  return compiled.policies.flatMap((policy) =>
    [...(policy.ingress ?? []), ...(policy.egress ?? [])].flatMap((rule) =>
      (rule.peers ?? []).flatMap((peer) => peer.blocks ?? []),
    ),
  );
}

export function externalEndpoint(text: unknown, field: string): Endpoint {
  const ip = typeof text === 'string' ? parseIp(text) : undefined;
  if (!ip) throw badRequest(`${field} "${String(text)}" is not an IPv4 or IPv6 address`);
  return { text: text as string, ips: [ip], hostNetwork: false, containerPorts: [] };
}

/** Compiles every policy once (a malformed one is a 400 naming its field) and indexes the objects. */
export function compileSnapshot(snapshot: ClusterSnapshot): CompiledSnapshot {
  const labels = new Map(
    snapshot.namespaces.map((ns) => [ns.metadata?.name ?? '', ns.metadata?.labels ?? {}]),
  );
  return {
    policies: snapshot.policies.map(compilePolicy),
    // The API server sets kubernetes.io/metadata.name on every namespace; add it for snapshots that lack it.
    namespaceLabels: (namespace) => ({ ...labels.get(namespace), [namespaceNameLabel]: namespace }),
    pods: new Map(snapshot.pods.map((pod) => [keyOf(pod), pod])),
    services: new Map(snapshot.services.map((service) => [keyOf(service), service])),
  };
}

/**
 * The policies of a pod's namespace selecting it for a direction (directionOutcome then sets aside outside
 * addresses and host-network pods, which nothing polices).
 */
export function selectingPolicies(
  compiled: CompiledSnapshot,
  target: Endpoint,
  direction: 'ingress' | 'egress',
): CompiledPolicy[] {
  return compiled.policies.filter(
    (p) => p[direction] !== undefined && p.namespace === target.namespace && p.selects(target.labels),
  );
}

export function refAt(value: unknown, field: string): ObjectRef {
  const { namespace, name } = obj(value);
  if (typeof namespace !== 'string' || !namespace || typeof name !== 'string' || !name)
    throw badRequest(`${field} needs a namespace and a name`);
  return { namespace, name };
}

export function podAt(compiled: CompiledSnapshot, value: unknown, field: string): Endpoint {
  const { namespace, name } = refAt(value, field);
  const pod = compiled.pods.get(`${namespace}/${name}`);
  if (!pod) throw notFound(`pod ${namespace}/${name} not found`);
  return podEndpoint(pod, compiled);
}
