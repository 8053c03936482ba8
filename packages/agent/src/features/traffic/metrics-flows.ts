import type { VectorSample } from '../../scope/metricsdb/client.ts';
import type { SourceName } from './detect.ts';
import type { Endpoint } from './model.ts';

/** Traffic between two ends over a window as a metrics source counts it (one or more of its series). */
export interface MetricFlow {
  source: Endpoint;
  destination: Endpoint;
  protocol?: string;
  port?: number;
  requests: number;
  /** Requests answered 5xx. */
  errors: number;
  bytes: number;
  httpStatus: Record<string, number>;
}

/** Names the ends a series labels: a workload (its kind from the source, else the cache) or an address. */
export interface Namer {
  workload(namespace: string, name: string, kind?: string): Endpoint;
  address(address: string): Endpoint;
}

export type MetricSource = Exclude<SourceName, 'hubble'>;

/** The series whose presence in the store makes a source count as present (ADR 0034). */
export const presenceSeries: Record<MetricSource, string> = {
  istio: 'istio_requests_total|istio_tcp_sent_bytes_total',
  caretta: 'caretta_links_observed',
  beyla: 'beyla_network_flow_bytes_total',
};

const istioPair =
  'source_workload, source_workload_namespace, destination_workload, destination_workload_namespace';
const istioBytes =
  'istio_tcp_sent_bytes_total|istio_tcp_received_bytes_total|istio_request_bytes_sum|istio_response_bytes_sum';
const carettaLink =
  'client_kind, client_name, client_namespace, server_kind, server_name, server_namespace, server_port';
const beylaNetwork =
  'k8s_src_owner_type, k8s_src_owner_name, k8s_src_namespace, k8s_dst_owner_type, k8s_dst_owner_name, k8s_dst_namespace, dst_port, transport';
const beylaServer =
  'k8s_namespace_name, k8s_owner_name, k8s_deployment_name, k8s_statefulset_name, k8s_daemonset_name, client_address, server_port, http_response_status_code';

/**
 * Both sidecars of a meshed pair report it; the destination's report wins, the source's counts only for pairs
 * the destination did not report (a peer without a sidecar), so nothing is counted twice.
 */
const destinationFirst = (names: string, by: string, range: string) => {
  const part = (reporter: string) =>
    `sum by (${istioPair}${by}) (increase({__name__=~"${names}",reporter="${reporter}"}[${range}]))`;
  return `${part('destination')} or on (${istioPair}) ${part('source')}`;
};

/** The instant queries of a source over a window of `seconds`: what each series adds up to in the window. */
export function metricQueries(source: MetricSource, seconds: number): Record<'requests' | 'bytes', string> {
  const range = `${Math.round(seconds)}s`;
  switch (source) {
    case 'istio':
      return {
        requests: destinationFirst('istio_requests_total', ', response_code', range),
        bytes: destinationFirst(istioBytes, '', range),
      };
    case 'caretta':
      // Each side of a link may report it (role): the larger count is the link's, never the sum.
      return {
        requests: '',
        bytes: `max without (role) (sum by (${carettaLink}, role) (increase(caretta_links_observed[${range}])))`,
      };
    case 'beyla':
      return {
        requests: `sum by (${beylaServer}) (increase(http_server_request_duration_seconds_count{k8s_owner_name!=""}[${range}]))`,
        bytes: `sum by (${beylaNetwork}) (increase(beyla_network_flow_bytes_total[${range}]))`,
      };
  }
}

const countOf = (sample: VectorSample) => {
  const value = Number(sample.value[1]);
  return Number.isFinite(value) && value > 0 ? value : 0;
};
const portOf = (value: string | undefined) => {
  const port = Number(value);
  return Number.isInteger(port) && port > 0 && port < 65_536 ? port : undefined;
};
const empty = (source: Endpoint, destination: Endpoint): MetricFlow => ({
  source,
  destination,
  requests: 0,
  errors: 0,
  bytes: 0,
  httpStatus: {},
});
const withRequests = (flow: MetricFlow, count: number, status: string | undefined): MetricFlow => {
  const code = Number(status);
  return {
    ...flow,
    requests: count,
    errors: code >= 500 ? count : 0,
    httpStatus: status ? { [status]: count } : {},
  };
};

/** Istio names a peer outside the mesh `unknown`. */
const istioEnd = (namer: Namer, namespace: string | undefined, name: string | undefined) =>
  name && namespace && name !== 'unknown'
    ? namer.workload(namespace, name)
    : namer.address(name ?? 'unknown');

function istio(namer: Namer, requests: VectorSample[], bytes: VectorSample[]): MetricFlow[] {
  const ends = ({ metric: m }: VectorSample) =>
    empty(
      istioEnd(namer, m.source_workload_namespace, m.source_workload),
      istioEnd(namer, m.destination_workload_namespace, m.destination_workload),
    );
  return [
    ...requests.map((s) => withRequests(ends(s), countOf(s), s.metric.response_code)),
    ...bytes.map((s) => ({ ...ends(s), bytes: countOf(s) })),
  ];
}

/** Caretta's ends: a workload, a `node`, or an address outside the cluster (`external`). */
function carettaEnd(namer: Namer, kind: string | undefined, name: string, namespace: string | undefined) {
  if (kind?.toLowerCase() === 'node') return namer.workload('', name, 'Node');
  return namespace && kind?.toLowerCase() !== 'external'
    ? namer.workload(namespace, name, kind)
    : namer.address(name);
}

function caretta(namer: Namer, bytes: VectorSample[]): MetricFlow[] {
  return bytes.map(({ metric: m, value }) => ({
    ...empty(
      carettaEnd(namer, m.client_kind, m.client_name ?? '', m.client_namespace),
      carettaEnd(namer, m.server_kind, m.server_name ?? '', m.server_namespace),
    ),
    protocol: 'TCP',
    port: portOf(m.server_port),
    bytes: countOf({ metric: m, value }),
  }));
}

/** Beyla's server-side kind labels, in the order its decorator fills them. */
const beylaKinds: [string, string][] = [
  ['k8s_deployment_name', 'Deployment'],
  ['k8s_statefulset_name', 'StatefulSet'],
  ['k8s_daemonset_name', 'DaemonSet'],
];

/** A client address is an IP, or `name.namespace` where Beyla's resolver named the peer's workload. */
function beylaClient(namer: Namer, address: string | undefined): Endpoint {
  const named = address?.match(/^([a-z0-9-]+)\.([a-z0-9-]+)$/);
  return named?.[1] && named[2] ? namer.workload(named[2], named[1]) : namer.address(address ?? 'unknown');
}

function beyla(namer: Namer, requests: VectorSample[], bytes: VectorSample[]): MetricFlow[] {
  const served = requests.map((s) => {
    const m = s.metric;
    const kind = beylaKinds.find(([label]) => m[label])?.[1];
    const server = namer.workload(m.k8s_namespace_name ?? '', m.k8s_owner_name ?? '', kind);
    const flow = { ...empty(beylaClient(namer, m.client_address), server), port: portOf(m.server_port) };
    return withRequests(flow, countOf(s), m.http_response_status_code);
  });
  const flowed = bytes.map((s) => {
    const m = s.metric;
    const end = (namespace?: string, name?: string, kind?: string) =>
      namespace && name ? namer.workload(namespace, name, kind) : namer.address(name ?? 'unknown');
    return {
      ...empty(
        end(m.k8s_src_namespace, m.k8s_src_owner_name, m.k8s_src_owner_type),
        end(m.k8s_dst_namespace, m.k8s_dst_owner_name, m.k8s_dst_owner_type),
      ),
      protocol: m.transport ?? 'TCP',
      port: portOf(m.dst_port),
      bytes: countOf(s),
    };
  });
  return [...served, ...flowed];
}

/** The answers of `metricQueries` as flows between named ends. */
export function metricFlows(
  source: MetricSource,
  namer: Namer,
  answers: { requests: VectorSample[]; bytes: VectorSample[] },
): MetricFlow[] {
  switch (source) {
    case 'istio':
      return istio(namer, answers.requests, answers.bytes);
    case 'caretta':
      return caretta(namer, answers.bytes);
    case 'beyla':
      return beyla(namer, answers.requests, answers.bytes);
  }
}
