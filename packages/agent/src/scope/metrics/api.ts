import { AppError } from '@binnacle/common/server';
import type { Impersonation, KubeClient } from '../../kube/client.ts';
import { type RawMetrics, type Sample, sampleOf } from './usage.ts';

export const metricsApiService = 'v1beta1.metrics.k8s.io';

export type Availability =
  | { available: true }
  | { available: false; reason: 'not_installed' | 'not_available'; diagnosis: string };

interface ApiService {
  status?: { conditions?: { type?: string; status?: string; reason?: string; message?: string }[] };
}

const memoMs = 5000;

/**
 * Whether metrics.k8s.io is served, from its APIService (`v1beta1.metrics.k8s.io`) and the Available
 * condition the aggregator keeps on it: the diagnosis says what an operator has to fix. Asked as the agent and
 * remembered a few seconds, since every metrics route asks.
 */
export class MetricsAvailability {
  readonly #client: KubeClient;
  #memo?: { at: number; answer: Promise<Availability> };

  constructor(client: KubeClient) {
    this.#client = client;
  }

  check(options: { fresh?: boolean } = {}): Promise<Availability> {
    const now = Date.now();
    if (!options.fresh && this.#memo && now - this.#memo.at < memoMs) return this.#memo.answer;
    const answer = this.#read();
    this.#memo = { at: now, answer };
    return answer;
  }

  async #read(): Promise<Availability> {
    let service: ApiService;
    try {
      service = await this.#client.request<ApiService>({
        path: `/apis/apiregistration.k8s.io/v1/apiservices/${metricsApiService}`,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        return {
          available: false,
          reason: 'not_installed',
          diagnosis: `metrics.k8s.io is not served: there is no APIService ${metricsApiService}. Install metrics-server (https://github.com/kubernetes-sigs/metrics-server) to see CPU and memory use.`,
        };
      }
      // The agent may not read APIServices (a namespace-scoped identity): the metrics requests themselves tell.
      return { available: true };
    }
    const condition = service.status?.conditions?.find((c) => c.type === 'Available');
    if (condition?.status === 'True') return { available: true };
    const why = condition
      ? `${condition.reason ?? 'Unavailable'}: ${condition.message ?? 'no message'}`
      : 'no Available condition yet';
    return {
      available: false,
      reason: 'not_available',
      diagnosis: `APIService ${metricsApiService} is not available (${why}); check that the metrics-server pods run and the API server can reach them.`,
    };
  }
}

const base = '/apis/metrics.k8s.io/v1beta1';
const segment = encodeURIComponent;

/** The metrics.k8s.io path of pod metrics (all, a namespace's, or one pod's) or node metrics (all or one). */
export function metricsPath(kind: 'pods' | 'nodes', namespace?: string, name?: string): string {
  const scope = kind === 'pods' && namespace ? `/namespaces/${segment(namespace)}` : '';
  return `${base}${scope}/${kind}${name ? `/${segment(name)}` : ''}`;
}

export async function readSamples(client: KubeClient, path: string, as?: Impersonation): Promise<Sample[]> {
  const list = await client.request<{ items?: RawMetrics[] }>({ path, as });
  return (list.items ?? []).map(sampleOf);
}

export async function readSample(client: KubeClient, path: string, as?: Impersonation): Promise<Sample> {
  return sampleOf(await client.request<RawMetrics>({ path, as }));
}
