import type { KubeObject } from '@binnacle/common';

/** A Service that may be a metrics store, and how to reach its Prometheus API on it. */
export interface Candidate {
  namespace: string;
  service: string;
  /** The service port to use. */
  port: number;
  /** Where the Prometheus API lives under that port ('' or e.g. /select/0/prometheus for vmselect). */
  path: string;
  score: number;
  /** Why it was picked: a well-known name, or the signals that scored. */
  why: string;
}

interface WellKnown {
  name: RegExp;
  ports: number[];
  path: string;
}

/**
 * Names the common charts and operators give their query service, best first: the Prometheus Operator's
 * governing service and kube-prometheus-stack, the prometheus chart, VictoriaMetrics single and cluster, Thanos
 * and Mimir. Any namespace the agent can list services in.
 */
export const wellKnownServices: WellKnown[] = [
  { name: /^prometheus-operated$/, ports: [9090], path: '' },
  {
    name: /^(kube-prometheus-stack|prometheus-kube-prometheus|[a-z0-9-]+-kube-prom)-prometheus$/,
    ports: [9090],
    path: '',
  },
  { name: /^prometheus-k8s$/, ports: [9090], path: '' },
  { name: /^prometheus-server$/, ports: [80, 9090], path: '' },
  {
    name: /^(vmsingle-[a-z0-9-]+|victoria-metrics-single-server|[a-z0-9-]+-victoria-metrics-single-server)$/,
    ports: [8429, 8428],
    path: '',
  },
  { name: /^(vmselect-[a-z0-9-]+|[a-z0-9-]+-vmselect)$/, ports: [8481], path: '/select/0/prometheus' },
  { name: /^thanos-quer(y|ier)(-frontend)?$/, ports: [9090, 10902], path: '' },
  { name: /^(mimir-query-frontend|mimir-nginx|mimir-gateway)$/, ports: [8080, 80], path: '/prometheus' },
  { name: /^prometheus$/, ports: [9090, 80], path: '' },
];

/** Services that sit beside a store but do not answer queries. */
const notAStore =
  /alertmanager|pushgateway|node-exporter|kube-state-metrics|operator|grafana|adapter|blackbox|webhook/;
const metricsNamespaces = new Set([
  'monitoring',
  'prometheus',
  'observability',
  'metrics',
  'opencost',
  'victoria-metrics',
]);
const storePorts = new Map([
  [9090, 30],
  [8428, 30],
  [8429, 30],
  [8481, 30],
  [10902, 20],
]);

interface ServicePort {
  port: number;
  name?: string;
}

const portsOf = (service: KubeObject): ServicePort[] =>
  ((service.spec?.ports as ServicePort[] | undefined) ?? []).filter((p) => typeof p.port === 'number');

/** Scores a Service that is not well known by its name, labels, ports and namespace (0: not a store). */
export function scoreService(service: KubeObject): Candidate | undefined {
  const name = service.metadata?.name ?? '';
  const namespace = service.metadata?.namespace ?? '';
  const labels = Object.values(service.metadata?.labels ?? {}).join(' ');
  const text = `${name} ${labels}`;
  const ports = portsOf(service);
  if (notAStore.test(name) || ports.length === 0) return undefined;
  const signals: [number, string][] = [];
  if (/vmselect/.test(text)) signals.push([90, 'vmselect']);
  else if (/victoria-?metrics|vmsingle/.test(text)) signals.push([90, 'VictoriaMetrics']);
  else if (/prometheus/.test(text)) signals.push([100, 'prometheus']);
  else if (/thanos/.test(text)) signals.push([80, 'thanos']);
  else if (/mimir|cortex/.test(text)) signals.push([70, 'mimir']);
  const port =
    ports.find((p) => storePorts.has(p.port)) ?? ports.find((p) => /web|http|query/.test(p.name ?? ''));
  if (port && storePorts.has(port.port)) signals.push([storePorts.get(port.port) ?? 0, `port ${port.port}`]);
  if (metricsNamespaces.has(namespace)) signals.push([10, `namespace ${namespace}`]);
  const score = signals.reduce((sum, [points]) => sum + points, 0);
  // A port alone (9090 is common) is not enough: a name or label must say it is a store.
  if (score < 70) return undefined;
  return {
    namespace,
    service: name,
    port: (port ?? ports[0])?.port ?? 0,
    path: /vmselect/.test(text) ? '/select/0/prometheus' : /mimir|cortex/.test(text) ? '/prometheus' : '',
    score,
    why: signals.map(([, why]) => why).join(', '),
  };
}

function wellKnown(service: KubeObject): Candidate | undefined {
  const name = service.metadata?.name ?? '';
  const index = wellKnownServices.findIndex((known) => known.name.test(name));
  const known = wellKnownServices[index];
  if (!known) return undefined;
  const ports = portsOf(service);
  const port = known.ports.map((p) => ports.find((s) => s.port === p)).find(Boolean) ?? ports[0];
  if (!port) return undefined;
  return {
    namespace: service.metadata?.namespace ?? '',
    service: name,
    port: port.port,
    path: known.path,
    score: 1000 - index,
    why: 'well-known service name',
  };
}

/** Every Service that may be a store, well-known names first, then by score, at most `limit`. */
export function rankCandidates(services: KubeObject[], limit = 5): Candidate[] {
  return services
    .map((service) => wellKnown(service) ?? scoreService(service))
    .filter((candidate): candidate is Candidate => candidate !== undefined)
    .sort(
      (a, b) =>
        b.score - a.score || `${a.namespace}/${a.service}`.localeCompare(`${b.namespace}/${b.service}`),
    )
    .slice(0, limit);
}
