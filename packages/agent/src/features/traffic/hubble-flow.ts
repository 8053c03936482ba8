import type { HubbleEndpoint, HubbleFlow } from './hubble-proto.ts';
import { type FlowRecord, type L7Record, type RawEndpoint, type Verdict, verdicts } from './model.ts';

function rawEndpoint(end: HubbleEndpoint | undefined, ip: string | undefined, names: string[] | undefined) {
  const workload = end?.workloads?.[0];
  const raw: RawEndpoint = {
    ...(ip ? { ip } : {}),
    ...(end?.namespace ? { namespace: end.namespace } : {}),
    ...(end?.podName ? { pod: end.podName } : {}),
    ...(end?.labels?.length ? { labels: end.labels } : {}),
    ...(workload?.kind && workload.name ? { workload: { kind: workload.kind, name: workload.name } } : {}),
    ...(names?.length ? { names } : {}),
  };
  return raw;
}

function l7Of(flow: HubbleFlow): L7Record | undefined {
  const l7 = flow.l7;
  if (!l7?.http) return undefined;
  const type = l7.type === 'REQUEST' ? 'request' : l7.type === 'RESPONSE' ? 'response' : 'other';
  return {
    type,
    ...(type === 'response' && l7.http.code ? { status: l7.http.code } : {}),
    ...(l7.http.method ? { method: l7.http.method } : {}),
    ...(l7.latencyNs ? { latencyMs: l7.latencyNs / 1e6 } : {}),
  };
}

/** A decoded Hubble flow as the agent's source-neutral record. */
export function fromHubble(flow: HubbleFlow, now = Date.now()): FlowRecord {
  const l4 = flow.l4 ?? {};
  const ports = l4.TCP ?? l4.UDP ?? l4.SCTP;
  const protocol = l4.TCP
    ? 'TCP'
    : l4.UDP
      ? 'UDP'
      : l4.SCTP
        ? 'SCTP'
        : l4.ICMPv4 || l4.ICMPv6
          ? 'ICMP'
          : 'other';
  // An L7 response carries is_reply; Cilium also marks it by its type when is_reply is left unset.
  const reply = flow.isReply?.value ?? flow.l7?.type === 'RESPONSE';
  const verdict = (flow.verdict ?? 'VERDICT_UNKNOWN').toLowerCase().replace('verdict_', '') as Verdict;
  const seconds = flow.time?.seconds;
  const l7 = l7Of(flow);
  const port = reply ? ports?.sourcePort : ports?.destinationPort;
  return {
    time: seconds === undefined ? now : seconds * 1000 + Math.floor((flow.time?.nanos ?? 0) / 1e6),
    ...(flow.uuid ? { uid: flow.uuid } : {}),
    source: rawEndpoint(flow.source, flow.IP?.source, flow.sourceNames),
    destination: rawEndpoint(flow.destination, flow.IP?.destination, flow.destinationNames),
    verdict: verdicts.includes(verdict) ? verdict : 'unknown',
    protocol,
    ...(port ? { port } : {}),
    reply,
    opensConnection: Boolean(l4.TCP?.flags?.SYN && !l4.TCP.flags.ACK && !reply),
    ...(l7 ? { l7 } : {}),
    ...(flow.dropReasonDesc && flow.dropReasonDesc !== 'DROP_REASON_UNKNOWN'
      ? { dropReason: flow.dropReasonDesc }
      : {}),
  };
}
