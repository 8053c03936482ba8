import type { KubeObject } from '@binnacle/common';
import type { MetricSource } from './metrics-flows.ts';
import type { Presence } from './metrics-source.ts';

/** Detection order: the first available source that can give flows is the active one. */
export const sourceNames = ['hubble', 'istio', 'caretta', 'beyla'] as const;
export type SourceName = (typeof sourceNames)[number];

export type SourceStatus = 'available' | 'not_found' | 'needs_metrics_store';

export interface SourceDetection {
  name: SourceName;
  status: SourceStatus;
  /** Hubble is read natively (gRPC); the others through their series in the metrics store. */
  native: boolean;
  message: string;
  /** Where it was found (`kube-system/hubble-relay`). */
  found?: string;
}

/** The cached objects detection looks at. */
export interface DetectionInput {
  services: readonly KubeObject[];
  deployments: readonly KubeObject[];
  daemonSets: readonly KubeObject[];
  /** `--hubble-address` / a POST /api/traffic/connect address: Hubble counts as present without a Service. */
  hubbleAddress?: string;
  /** Which metric-based sources have series in the metrics store, or why it cannot say. */
  metrics: Presence;
}

const name = (o: KubeObject) => o.metadata?.name ?? '';
const where = (o: KubeObject) => `${o.metadata?.namespace}/${name(o)}`;
const labelled = (o: KubeObject, value: string) =>
  o.metadata?.labels?.['app.kubernetes.io/name'] === value ||
  o.metadata?.labels?.['k8s-app'] === value ||
  o.metadata?.labels?.app === value;

/** The hubble-relay Service: by name or `k8s-app=hubble-relay`, kube-system first. */
export function findRelayService(services: readonly KubeObject[]): KubeObject | undefined {
  const relays = services.filter((s) => name(s) === 'hubble-relay' || labelled(s, 'hubble-relay'));
  return relays.find((s) => s.metadata?.namespace === 'kube-system') ?? relays[0];
}

/**
 * A metric-based source is available when the store holds its series, whether or not its objects run in this
 * cluster (a store fed by another cluster's scrapers, or a test's seeded series); found without its series it
 * waits for the store.
 */
function byMetrics(
  source: MetricSource,
  object: KubeObject | undefined,
  what: string,
  label: string,
  metrics: Presence,
): SourceDetection {
  const found = object ? { found: where(object) } : {};
  if ('present' in metrics && metrics.present.has(source))
    return {
      name: source,
      status: 'available',
      native: false,
      message: object
        ? `${what} found; its series are in the metrics store`
        : `${label} series in the metrics store`,
      ...found,
    };
  const store = 'reason' in metrics ? metrics.reason : `the metrics store holds no ${label} series`;
  return object
    ? {
        name: source,
        status: 'needs_metrics_store',
        native: false,
        message: `${what} found, but ${store}`,
        ...found,
      }
    : { name: source, status: 'not_found', native: false, message: `no ${what}; ${store}` };
}

/** What of each traffic source the cluster runs, in detection order. */
export function detectSources(input: DetectionInput): SourceDetection[] {
  const relay = findRelayService(input.services);
  const istiod = input.deployments.find((d) => name(d) === 'istiod' || labelled(d, 'istiod'));
  const caretta = input.daemonSets.find((d) => name(d).includes('caretta') || labelled(d, 'caretta'));
  const beyla = input.daemonSets.find((d) => name(d).includes('beyla') || labelled(d, 'beyla'));
  const hubble: SourceDetection = relay
    ? {
        name: 'hubble',
        status: 'available',
        native: true,
        message: 'hubble-relay Service found',
        found: where(relay),
      }
    : input.hubbleAddress
      ? {
          name: 'hubble',
          status: 'available',
          native: true,
          message: `Hubble relay at ${input.hubbleAddress}`,
        }
      : {
          name: 'hubble',
          status: 'not_found',
          native: true,
          message: 'no hubble-relay Service in the cluster',
        };
  return [
    hubble,
    byMetrics('istio', istiod, 'istiod Deployment', 'Istio', input.metrics),
    byMetrics('caretta', caretta, 'Caretta DaemonSet', 'Caretta', input.metrics),
    byMetrics('beyla', beyla, 'Beyla DaemonSet', 'Beyla', input.metrics),
  ];
}

export interface Recommendation {
  name: SourceName;
  reason: string;
  installCommand: string;
  docsUrl: string;
}

/** The CNI, from the DaemonSets its installers name. */
export function detectCni(daemonSets: readonly KubeObject[]): string | undefined {
  const names = new Set(daemonSets.map(name));
  const known: [string, string][] = [
    ['cilium', 'cilium'],
    ['anetd', 'cilium'],
    ['calico-node', 'calico'],
    ['canal', 'canal'],
    ['kube-flannel-ds', 'flannel'],
    ['aws-node', 'aws-vpc-cni'],
    ['azure-cni', 'azure-cni'],
  ];
  return known.find(([ds]) => names.has(ds))?.[1];
}

/** What to install when no source gives flows: Hubble's relay on Cilium, else Caretta (any CNI). */
export function recommend(cni: string | undefined): Recommendation {
  if (cni === 'cilium')
    return {
      name: 'hubble',
      reason: 'the cluster runs Cilium: install Cilium with Hubble relay enabled to see its flows',
      installCommand:
        'cilium hubble enable  # or: helm upgrade cilium cilium/cilium --reuse-values --set hubble.relay.enabled=true',
      docsUrl: 'https://docs.cilium.io/en/stable/observability/hubble/setup/',
    };
  return {
    name: 'caretta',
    reason: `the cluster's CNI (${cni ?? 'unknown'}) has no flow API: Caretta (eBPF) works with any CNI, or install Cilium with Hubble relay`,
    installCommand: 'helm install caretta groundcover/caretta --namespace caretta --create-namespace',
    docsUrl: 'https://github.com/groundcover-com/caretta',
  };
}
