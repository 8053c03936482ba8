import type { KubeObject } from '@binnacle/common';

/** What the evaluator reads: plain objects as the API server returns them (policies are networking.k8s.io/v1). */
export interface ClusterSnapshot {
  namespaces: KubeObject[];
  pods: KubeObject[];
  services: KubeObject[];
  policies: KubeObject[];
}

export type Protocol = 'TCP' | 'UDP' | 'SCTP';
export const protocols: readonly Protocol[] = ['TCP', 'UDP', 'SCTP'];

export interface ObjectRef {
  namespace: string;
  name: string;
}

/**
 * Where a connection starts: a pod of the snapshot; a hypothetical pod with these labels in that namespace
 * (the namespace's labels come from its Namespace object plus the automatic `kubernetes.io/metadata.name`);
 * or an address outside the cluster — or a block of them (`10.0.0.0/8`, judged for every address in it) — which
 * only ipBlock peers match and whose egress nothing polices.
 */
export type Source =
  | { pod: ObjectRef }
  | { namespace: string; labels: Record<string, string> }
  | { ip: string };

/**
 * Where a connection goes: a pod; a Service, which stands for the pods its selector picks in its namespace
 * (policies see traffic after the Service's address is rewritten to a pod's, on the Service port's targetPort);
 * or an address outside the cluster, whose ingress nothing polices.
 */
export type Destination = { pod: ObjectRef } | { service: ObjectRef } | { ip: string };

export interface ConnectionQuery {
  source: Source;
  destination: Destination;
  /**
   * The destination port (for a Service: the Service port, resolved to each pod's targetPort). When absent,
   * the question is "is ANY port open end to end": the answer is allowed when at least one port of the
   * protocol (for a Service: one of its target ports) is open in both directions at once, and `ports` lists
   * them. It is never "are ALL ports open"; ask for a port to learn about that one.
   */
  port?: number;
  /** TCP when absent. */
  protocol?: Protocol;
}

/** One rule that let the connection through; peer and port indexes are absent when the rule has none. */
export interface RuleRef {
  /** `namespace/name` of the NetworkPolicy. */
  policy: string;
  ruleIndex: number;
  peerIndex?: number;
  portIndex?: number;
}

export interface DirectionVerdict {
  /** Whether some policy selects the pod for this direction; false for a party outside the cluster. */
  isolated: boolean;
  allowed: boolean;
  /** `namespace/name` of every policy selecting the pod for this direction. */
  policies: string[];
  /** The rules that allowed the connection; empty when the direction denies it or is not isolated. */
  decidedBy: RuleRef[];
  reason: string;
  /** The ports (of those asked about) this direction opens: `all`, `none`, or ranges like `80, 8000-8080`. */
  ports: string;
}

export interface PairVerdict {
  allowed: boolean;
  egress: DirectionVerdict;
  ingress: DirectionVerdict;
  /** The ports open end to end, of those asked about. */
  ports: string;
}

export interface BackendVerdict extends PairVerdict {
  pod: ObjectRef;
  /** The Service port's targetPort on this pod; absent when the query names no port. */
  targetPort?: number;
}

/**
 * The answer. For a Service destination, `perPod` has one verdict per backing pod and `allowed` is true when
 * at least one backend is reachable (a client reaches the Service if any endpoint lets it in); `egress` and
 * `ingress` then describe the first reachable backend, or the first backend when none is.
 */
export interface ConnectionResult extends PairVerdict {
  perPod?: BackendVerdict[];
  /**
   * For a source block of addresses (`ip: "10.0.0.0/8"`): the block cut where policies' ipBlocks begin and end,
   * each part with its verdict; the connection is allowed only when every part is.
   */
  sourceParts?: { addresses: string; allowed: boolean }[];
}

export interface MatrixOptions {
  /** Absent: a cell is allowed when any port is open end to end (see ConnectionQuery.port). */
  port?: number;
  protocol?: Protocol;
}

export interface MatrixCell {
  allowed: boolean;
  egress: boolean;
  ingress: boolean;
  /**
   * The deciding policies: when allowed, those whose rules let it through; when denied, those isolating the
   * direction(s) that denied it.
   */
  policies: string[];
}

export interface ReachabilityMatrix {
  /** `namespace/name` of each pod, the order of rows (sources) and columns (destinations). */
  pods: string[];
  port: number | 'any';
  protocol: Protocol;
  cells: MatrixCell[][];
}
