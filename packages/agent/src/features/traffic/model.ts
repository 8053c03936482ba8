import type { TrafficPair } from '../../scope/topology/traffic-edges.ts';

/** What a flow source says it decided about a flow, in Hubble's words (lower-case). */
export const verdicts = [
  'forwarded',
  'dropped',
  'error',
  'audit',
  'redirected',
  'traced',
  'translated',
  'unknown',
] as const;
export type Verdict = (typeof verdicts)[number];

/** One end of a flow as the source reports it, before the agent's cache names it. */
export interface RawEndpoint {
  ip?: string;
  namespace?: string;
  pod?: string;
  /** `key=value` labels; Hubble's `reserved:world` / `reserved:host` mark the outside and the node. */
  labels?: string[];
  /** The owning workload as the source knows it (Hubble's `workloads`), used when the pod left the cache. */
  workload?: { kind: string; name: string };
  /** DNS names the source saw for this IP (Hubble's `source_names` / `destination_names`). */
  names?: string[];
}

export interface L7Record {
  type: 'request' | 'response' | 'other';
  /** HTTP status of a response. */
  status?: number;
  method?: string;
  latencyMs?: number;
}

/** One observed flow, normalized from whichever source reported it. */
export interface FlowRecord {
  /** Epoch milliseconds. */
  time: number;
  /** The source's own id (Hubble's uuid), to drop the one flow two overlapping reads both return. */
  uid?: string;
  source: RawEndpoint;
  destination: RawEndpoint;
  verdict: Verdict;
  protocol: string;
  /** The destination port (after a reply is turned around: the server's port). */
  port?: number;
  /** Hubble's is_reply: the flow travels from the server back to the client. */
  reply: boolean;
  /** A TCP SYN without ACK: a connection being opened. */
  opensConnection: boolean;
  l7?: L7Record;
  dropReason?: string;
}

export type EndpointKind =
  | 'Deployment'
  | 'StatefulSet'
  | 'DaemonSet'
  | 'Job'
  | 'CronJob'
  | 'ReplicaSet'
  | 'Pod'
  | 'Service'
  | 'Node'
  | 'External'
  | 'Hidden';

/** A flow end named after a Kubernetes object (or the outside world, or hidden from the caller). */
export interface Endpoint {
  /** The topology's node id (`deployment/shop/web`, `service/shop/web`, `node/n1`), `external/<ip>`, or `hidden`. */
  id: string;
  kind: EndpointKind;
  name: string;
  namespace?: string;
  ip?: string;
}

export interface ResolvedFlow {
  source: Endpoint;
  destination: Endpoint;
  record: FlowRecord;
}

/** The flows between two endpoints in a time window, added up (the counts: TrafficPair). */
export interface FlowPair extends TrafficPair {
  /** `<source id>→<destination id>`. */
  id: string;
  source: Endpoint;
  destination: Endpoint;
  /**
   * Protocol and destination port seen between them, with the flow count of each (`TCP/8080`) and, where the
   * source reports verdicts per flow (Hubble), how many of them were dropped or in error.
   */
  ports: { protocol: string; port?: number; flows: number; dropped?: number }[];
  verdicts: Partial<Record<Verdict, number>>;
  /** HTTP status counts of the responses (`"200": 12`). */
  httpStatus: Record<string, number>;
  /** Latency of the L7 responses, where the source gives it. */
  avgLatencyMs?: number;
  lastSeen: string;
}
