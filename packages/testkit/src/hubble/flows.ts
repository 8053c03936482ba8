/** A pod as the flow builders need it: from the API (client-node's V1Pod) or a fixture. */
export interface FlowPod {
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string }[];
  };
  status?: { podIP?: string };
}

/** A `flow.Flow` message in proto-loader's object form (camelCase fields, enum names). */
export type HubbleFlowMessage = Record<string, unknown>;

export interface FlowOptions {
  /** Epoch milliseconds (default now). */
  time?: number;
  verdict?: 'FORWARDED' | 'DROPPED' | 'ERROR' | 'AUDIT' | 'REDIRECTED' | 'TRACED' | 'TRANSLATED';
  /** The server's port (default 8080). */
  port?: number;
  protocol?: 'TCP' | 'UDP';
  /** A TCP SYN: the client opens a connection. */
  syn?: boolean;
  /** An L7 HTTP record: a request from the client, or the server's response with its status. */
  http?: { type: 'REQUEST' | 'RESPONSE'; method?: string; url?: string; code?: number; latencyMs?: number };
  dropReason?: string;
}

let counter = 0;
const uuid = () => {
  counter += 1;
  return `00000000-0000-4000-8000-${counter.toString(16).padStart(12, '0')}`;
};

const endpoint = (pod: FlowPod) => ({
  namespace: pod.metadata?.namespace ?? '',
  podName: pod.metadata?.name ?? '',
  labels: Object.entries(pod.metadata?.labels ?? {}).map(([k, v]) => `k8s:${k}=${v}`),
  workloads: (pod.metadata?.ownerReferences ?? []).map((o) => ({ kind: o.kind, name: o.name })),
});

/** An address outside the cluster, as Hubble shows it: the `reserved:world` identity and the IP. */
export const world = (ip: string): { ip: string } => ({ ip });

type End = FlowPod | { ip: string };
const isPod = (end: End): end is FlowPod => !('ip' in end);
const ipOf = (end: End) => (isPod(end) ? (end.status?.podIP ?? '') : end.ip);
const endOf = (end: End) => (isPod(end) ? endpoint(end) : { labels: ['reserved:world'], identity: 2 });

/**
 * One Hubble flow from `client` to `server` (pods with their real IPs, or `world(ip)`), shaped as Cilium's
 * flow.proto has it. An HTTP response travels server → client and is marked as a reply, as Cilium marks it.
 */
export function hubbleFlow(client: End, server: End, options: FlowOptions = {}): HubbleFlowMessage {
  const time = options.time ?? Date.now();
  const reply = options.http?.type === 'RESPONSE';
  const [from, to] = reply ? [server, client] : [client, server];
  const port = options.port ?? 8080;
  const ephemeral = 40_000 + (counter % 20_000);
  const ports = reply
    ? { sourcePort: port, destinationPort: ephemeral }
    : { sourcePort: ephemeral, destinationPort: port };
  const l4 =
    options.protocol === 'UDP'
      ? { UDP: ports }
      : { TCP: { ...ports, flags: options.syn ? { SYN: true } : { ACK: true, PSH: !!options.http } } };
  const http = options.http;
  return {
    time: { seconds: Math.floor(time / 1000), nanos: (time % 1000) * 1e6 },
    uuid: uuid(),
    verdict: options.verdict ?? 'FORWARDED',
    IP: { source: ipOf(from), destination: ipOf(to), ipVersion: 'IPv4' },
    l4,
    source: endOf(from),
    destination: endOf(to),
    Type: http ? 'L7' : 'L3_L4',
    nodeName: 'kwok-node',
    isReply: { value: reply },
    trafficDirection: reply ? 'EGRESS' : 'INGRESS',
    ...(options.verdict === 'DROPPED' ? { dropReasonDesc: options.dropReason ?? 'POLICY_DENIED' } : {}),
    ...(http
      ? {
          l7: {
            type: http.type,
            latencyNs: (http.latencyMs ?? 0) * 1e6,
            http: {
              code: http.type === 'RESPONSE' ? (http.code ?? 200) : 0,
              method: http.method ?? 'GET',
              url: http.url ?? `http://${ipOf(server)}:${port}/`,
              protocol: 'HTTP/1.1',
            },
          },
        }
      : {}),
  };
}

/**
 * A little of everything between the given pods, in the order a client sees it: a connection opened, an HTTP
 * exchange per status, and a dropped connection attempt from the last pod to the first.
 */
export function sampleFlows(pods: readonly FlowPod[], time = Date.now()): HubbleFlowMessage[] {
  const flows: HubbleFlowMessage[] = [];
  for (let i = 0; i + 1 < pods.length; i += 1) {
    const [client, server] = [pods[i] as FlowPod, pods[i + 1] as FlowPod];
    flows.push(hubbleFlow(client, server, { time, syn: true }));
    for (const code of [200, 200, 503]) {
      flows.push(hubbleFlow(client, server, { time, http: { type: 'REQUEST', method: 'GET', url: '/' } }));
      flows.push(hubbleFlow(client, server, { time, http: { type: 'RESPONSE', code, latencyMs: 4 } }));
    }
  }
  const [first, last] = [pods[0], pods.at(-1)];
  if (first && last && pods.length > 1)
    flows.push(hubbleFlow(last, first, { time, syn: true, verdict: 'DROPPED', port: 5432 }));
  return flows;
}
