import type { Inventory } from './inventory.ts';
import { type FlowTruth, nameHash, round, type Series, seeded } from './model.ts';

/** Workloads that talk: each seeded workload calls the next one by name, at most `maxFlows` pairs. */
export function flowTruths(seed: number, inventory: Inventory, maxFlows = 8): FlowTruth[] {
  const workloads = [
    ...new Map(
      inventory.pods
        .filter((pod) => pod.owner.kind !== 'Pod')
        .map((pod) => [
          `${pod.namespace}/${pod.owner.name}`,
          { namespace: pod.namespace, workload: pod.owner.name, kind: pod.owner.kind },
        ]),
    ).values(),
  ];
  const flows: FlowTruth[] = [];
  for (let i = 0; i + 1 < workloads.length && flows.length < maxFlows; i += 1) {
    const source = workloads[i];
    const destination = workloads[i + 1];
    if (!source || !destination) continue;
    const h = nameHash(
      `${source.namespace}/${source.workload}->${destination.namespace}/${destination.workload}`,
    );
    flows.push({
      source,
      destination: { ...destination, port: 8080 },
      requestsPerSecond: round(1 + 49 * seeded(seed, h, 31), 2),
      errorRatio: round(0.05 * seeded(seed, h, 32), 3),
      bytesPerSecond: 1000 + Math.floor(99_000 * seeded(seed, h, 33)),
    });
  }
  return flows;
}

const counter = (perSecond: number, step: number) => (i: number) => round(perSecond * i * step, 3);

/** Istio's standard metrics as the destination's sidecar reports them. */
function istio(flow: FlowTruth, step: number): Series[] {
  const { source: s, destination: d } = flow;
  const labels = {
    job: 'envoy-stats',
    reporter: 'destination',
    source_workload: s.workload,
    source_workload_namespace: s.namespace,
    source_app: s.workload,
    destination_workload: d.workload,
    destination_workload_namespace: d.namespace,
    destination_app: d.workload,
    destination_service: `${d.workload}.${d.namespace}.svc.cluster.local`,
    destination_service_name: d.workload,
    destination_service_namespace: d.namespace,
    connection_security_policy: 'mutual_tls',
  };
  const http = { ...labels, request_protocol: 'http' };
  const errors = flow.requestsPerSecond * flow.errorRatio;
  return [
    {
      name: 'istio_requests_total',
      labels: { ...http, response_code: '200' },
      value: counter(flow.requestsPerSecond - errors, step),
    },
    { name: 'istio_requests_total', labels: { ...http, response_code: '500' }, value: counter(errors, step) },
    {
      name: 'istio_tcp_sent_bytes_total',
      labels: { ...labels, request_protocol: 'tcp' },
      value: counter(flow.bytesPerSecond, step),
    },
  ];
}

/** Caretta's one metric: bytes seen on a client→server link so far, a growing gauge. */
function caretta(flow: FlowTruth, step: number): Series {
  const { source: s, destination: d } = flow;
  return {
    name: 'caretta_links_observed',
    labels: {
      job: 'caretta',
      client_name: s.workload,
      client_namespace: s.namespace,
      client_kind: s.kind,
      server_name: d.workload,
      server_namespace: d.namespace,
      server_kind: d.kind,
      server_port: String(d.port),
      role: '1',
      link_id: String(nameHash(`${s.namespace}/${s.workload}->${d.namespace}/${d.workload}`)),
    },
    value: counter(flow.bytesPerSecond, step),
  };
}

/** Beyla's network flow bytes (k8s_* attributes) and its server request counter (OpenTelemetry names). */
function beyla(flow: FlowTruth, step: number): Series[] {
  const { source: s, destination: d } = flow;
  const errors = flow.requestsPerSecond * flow.errorRatio;
  const server = {
    job: 'beyla',
    k8s_namespace_name: d.namespace,
    k8s_owner_name: d.workload,
    [`k8s_${d.kind.toLowerCase()}_name`]: d.workload,
    http_request_method: 'GET',
    http_route: '/',
    server_port: String(d.port),
    client_address: `${s.workload}.${s.namespace}`,
  };
  return [
    {
      name: 'beyla_network_flow_bytes_total',
      labels: {
        job: 'beyla',
        direction: 'request',
        transport: 'TCP',
        k8s_src_namespace: s.namespace,
        k8s_src_owner_name: s.workload,
        k8s_src_owner_type: s.kind,
        k8s_dst_namespace: d.namespace,
        k8s_dst_owner_name: d.workload,
        k8s_dst_owner_type: d.kind,
        dst_port: String(d.port),
      },
      value: counter(flow.bytesPerSecond, step),
    },
    {
      name: 'http_server_request_duration_seconds_count',
      labels: { ...server, http_response_status_code: '200' },
      value: counter(flow.requestsPerSecond - errors, step),
    },
    {
      name: 'http_server_request_duration_seconds_count',
      labels: { ...server, http_response_status_code: '500' },
      value: counter(errors, step),
    },
  ];
}

export function trafficSeries(flows: FlowTruth[], step: number): Series[] {
  return flows.flatMap((flow) => [...istio(flow, step), caretta(flow, step), ...beyla(flow, step)]);
}
