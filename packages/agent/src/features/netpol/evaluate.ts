import type { KubeObject } from '@binnacle/common';
import { badRequest, notFound } from '@binnacle/common/server';
import { mapSelectorMatcher } from '../../kube/selectors.ts';
import { formatIp, parseCidr, splitCidr } from './cidr.ts';
import {
  type CompiledSnapshot,
  checkPortNumber,
  checkProtocol,
  compileSnapshot,
  type Endpoint,
  externalEndpoint,
  list,
  type Obj,
  obj,
  podAt,
  podEndpoint,
  policyBlocks,
  refAt,
  selectingPolicies,
} from './compile.ts';
import { bothDirections, firstPeer, type Parties, pairVerdict } from './direction.ts';
import type {
  BackendVerdict,
  ClusterSnapshot,
  ConnectionQuery,
  ConnectionResult,
  DirectionVerdict,
  PairVerdict,
  Protocol,
} from './model.ts';
import { allPorts, noPorts, type PortSet, portRange, unionPorts } from './ports.ts';

function hypotheticalPod(compiled: CompiledSnapshot, raw: Obj): Endpoint {
  if (typeof raw.namespace !== 'string' || !raw.namespace) throw badRequest('source.namespace is required');
  const labels = obj(raw.labels);
  for (const [key, value] of Object.entries(labels))
    if (typeof value !== 'string') throw badRequest(`source.labels.${key} is not a string`);
  const text = Object.entries(labels)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(',');
  return {
    text: `a pod {${text}} in ${raw.namespace}`,
    namespace: raw.namespace,
    labels: labels as Record<string, string>,
    namespaceLabels: compiled.namespaceLabels(raw.namespace),
    // Not scheduled, so no address: ipBlock peers cannot match it.
    ips: [],
    hostNetwork: false,
    containerPorts: [],
  };
}

function sourceOf(compiled: CompiledSnapshot, raw: Obj): Endpoint {
  if (raw.pod !== undefined) return podAt(compiled, raw.pod, 'source.pod');
  if (raw.ip !== undefined) return externalEndpoint(raw.ip, 'source.ip');
  if (raw.namespace !== undefined) return hypotheticalPod(compiled, raw);
  throw badRequest('source must be {pod: {namespace, name}}, {namespace, labels} or {ip}');
}

function evaluatePair(compiled: CompiledSnapshot, parties: Parties, asked: PortSet): PairVerdict {
  const policies = {
    egress: selectingPolicies(compiled, parties.source, 'egress'),
    ingress: selectingPolicies(compiled, parties.destination, 'ingress'),
  };
  const { egress, ingress } = bothDirections(parties, policies, (rule, peer) =>
    firstPeer(rule, parties[peer]),
  );
  return pairVerdict(egress, ingress, asked, parties);
}

/** The target ports the chosen Service ports lead to on one pod; a named targetPort may name none. */
function targetPorts(servicePorts: Obj[], pod: Endpoint, protocol: Protocol): PortSet {
  let set = noPorts;
  for (const servicePort of servicePorts) {
    const target = servicePort.targetPort ?? servicePort.port;
    const named = pod.containerPorts.find((c) => c.name === target && c.protocol === protocol);
    if (typeof target === 'number') set = unionPorts(set, portRange(target));
    else if (named) set = unionPorts(set, portRange(named.port));
  }
  return set;
}

const stuck = (reason: string): DirectionVerdict => ({
  isolated: false,
  allowed: false,
  policies: [],
  decidedBy: [],
  reason,
  ports: 'none',
});

function backendVerdict(
  compiled: CompiledSnapshot,
  source: Endpoint,
  pod: Endpoint,
  servicePorts: Obj[],
  query: { port?: number; protocol: Protocol },
): BackendVerdict {
  const ref = { namespace: pod.namespace ?? '', name: pod.name ?? '' };
  const asked = targetPorts(servicePorts, pod, query.protocol);
  const targetPort = query.port === undefined ? undefined : asked[0]?.[0];
  const parties = { source, destination: pod, protocol: query.protocol, port: targetPort };
  const verdict = evaluatePair(compiled, parties, asked);
  if (asked.length === 0) {
    const names = servicePorts.map((p) => String(p.targetPort)).join(', ');
    const reason = `the Service's targetPort ${names} names no ${query.protocol} container port of ${pod.text}`;
    return {
      ...verdict,
      egress: { ...verdict.egress, allowed: false, decidedBy: [], reason },
      ingress: { ...verdict.ingress, allowed: false, decidedBy: [], reason },
      pod: ref,
    };
  }
  return { ...verdict, pod: ref, ...(targetPort === undefined ? {} : { targetPort }) };
}

function serviceResult(
  compiled: CompiledSnapshot,
  source: Endpoint,
  value: unknown,
  query: { port?: number; protocol: Protocol },
): ConnectionResult {
  const { namespace, name } = refAt(value, 'destination.service');
  const key = `${namespace}/${name}`;
  const service = compiled.services.get(key);
  if (!service) throw notFound(`service ${key} not found`);
  const spec = obj(service.spec);
  const all = list(spec.ports);
  const servicePorts = all.filter(
    (p) => (p.protocol ?? 'TCP') === query.protocol && (query.port === undefined || p.port === query.port),
  );
  if (servicePorts.length === 0) {
    const has = all.map((p) => `${String(p.port)}/${String(p.protocol ?? 'TCP')}`).join(', ') || 'none';
    const wanted =
      query.port === undefined ? `a ${query.protocol} port` : `port ${query.port}/${query.protocol}`;
    throw badRequest(`Service ${key} has no ${wanted}; it has: ${has}`);
  }
  const selects = mapSelectorMatcher(obj(spec.selector) as Record<string, string>);
  const backends = [...compiled.pods.values()].filter(
    (pod: KubeObject) => pod.metadata?.namespace === namespace && selects(pod.metadata?.labels),
  );
  const perPod = backends.map((pod) =>
    backendVerdict(compiled, source, podEndpoint(pod, compiled), servicePorts, query),
  );
  const shown = perPod.find((v) => v.allowed) ?? perPod[0];
  if (!shown) {
    const none = stuck(`Service ${key} selects no pods in the snapshot (or has no selector)`);
    return { allowed: false, egress: none, ingress: none, ports: 'none', perPod };
  }
  return { allowed: shown.allowed, egress: shown.egress, ingress: shown.ingress, ports: shown.ports, perPod };
}

/** One source's verdict to the destination: a pod, a Service (per backing pod) or an outside address. */
function evaluateFrom(
  compiled: CompiledSnapshot,
  source: Endpoint,
  destination: Obj,
  query: { port?: number; protocol: Protocol },
): ConnectionResult {
  if (destination.service !== undefined) return serviceResult(compiled, source, destination.service, query);
  let target: Endpoint;
  if (destination.pod !== undefined) target = podAt(compiled, destination.pod, 'destination.pod');
  else if (destination.ip !== undefined) target = externalEndpoint(destination.ip, 'destination.ip');
  else throw badRequest('destination must be {pod: {namespace, name}}, {service: {namespace, name}} or {ip}');
  if (source.namespace === undefined && target.namespace === undefined)
    throw badRequest('source and destination are both outside the cluster: no NetworkPolicy applies to them');
  const asked = query.port === undefined ? allPorts : portRange(query.port);
  return evaluatePair(
    compiled,
    { source, destination: target, protocol: query.protocol, port: query.port },
    asked,
  );
}

/**
 * A block of outside addresses, judged part by part: cut where any policy's ipBlock (or except) begins or ends,
 * every address of a part meets the same peers, so one address decides for its part. Allowed only when every part
 * is; the verdicts shown are the first denied part's (else the first part's), and `sourceParts` lists them all.
 */
function evaluateBlock(
  compiled: CompiledSnapshot,
  text: string,
  destination: Obj,
  query: { port?: number; protocol: Protocol },
): ConnectionResult {
  const block = parseCidr(text);
  if (!block) throw badRequest(`source.ip "${text}" is not a valid CIDR`);
  if (query.port === undefined)
    throw badRequest(
      `port is required with an address block as the source (${text}): it is judged one port at a time`,
    );
  const parts = splitCidr(block, policyBlocks(compiled)).map(({ first, last }) => {
    const addresses =
      first === last
        ? formatIp({ family: block.family, value: first })
        : `${formatIp({ family: block.family, value: first })}-${formatIp({ family: block.family, value: last })}`;
    const source: Endpoint = {
      text: `${addresses} (of ${text})`,
      ips: [{ family: block.family, value: first }],
      hostNetwork: false,
      containerPorts: [],
    };
    return { addresses, result: evaluateFrom(compiled, source, destination, query) };
  });
  const denied = parts.find((part) => !part.result.allowed);
  const shown = (denied ?? parts[0]) as (typeof parts)[number];
  return {
    ...shown.result,
    allowed: denied === undefined,
    sourceParts: parts.map((part) => ({ addresses: part.addresses, allowed: part.result.allowed })),
  };
}

/**
 * Whether the snapshot's NetworkPolicies let `query.source` open a connection to `query.destination`, following
 * the networking.k8s.io/v1 semantics: egress is checked on a source pod, ingress on each destination pod, and
 * both must allow the same port. Malformed policies or queries are a 400 naming the field; unknown pods and
 * Services a 404.
 */
export function evaluateConnection(snapshot: ClusterSnapshot, query: ConnectionQuery): ConnectionResult {
  const compiled = compileSnapshot(snapshot);
  const protocol = checkProtocol(query.protocol ?? 'TCP', 'protocol');
  const port = query.port === undefined ? undefined : checkPortNumber(query.port, 'port');
  const rawSource = obj(query.source);
  const destination = obj(query.destination);
  if (typeof rawSource.ip === 'string' && rawSource.ip.includes('/'))
    return evaluateBlock(compiled, rawSource.ip, destination, { port, protocol });
  return evaluateFrom(compiled, sourceOf(compiled, rawSource), destination, { port, protocol });
}
