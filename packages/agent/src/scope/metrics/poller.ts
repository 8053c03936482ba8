import type { Cluster } from '../../kube/cluster.ts';
import { type MetricsAvailability, metricsPath, readSamples } from './api.ts';
import { MetricsHistory } from './history.ts';
import type { Sample } from './usage.ts';

export interface PollOutcome {
  at: string;
  /** Why the last poll's pod or node list failed, in words (absent when it worked). */
  podsError?: string;
  nodesError?: string;
}

export interface MetricsPollerOptions {
  intervalMs: number;
  capacity: number;
  log: (message: string, detail: Record<string, unknown>) => void;
}

/**
 * Feeds the metrics history: every interval one list of pod metrics and one of node metrics, made as the agent
 * (the routes that read history check the caller's access). A poll that is still running when the next is due is
 * not doubled; polls wait until the cluster is connected.
 */
export class MetricsPoller {
  readonly history: MetricsHistory;
  readonly intervalMs: number;
  last?: PollOutcome;
  readonly #cluster: Cluster;
  readonly #availability: MetricsAvailability;
  readonly #options: MetricsPollerOptions;
  #timer?: NodeJS.Timeout;
  #running?: Promise<void>;

  constructor(cluster: Cluster, availability: MetricsAvailability, options: MetricsPollerOptions) {
    this.#cluster = cluster;
    this.#availability = availability;
    this.#options = options;
    this.intervalMs = options.intervalMs;
    this.history = new MetricsHistory(options.capacity);
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.poll(), this.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One poll now (the timer's tick; tests call it too). */
  poll(): Promise<void> {
    if (this.#cluster.state !== 'connected') return Promise.resolve();
    this.#running ??= this.#pollOnce().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #pollOnce(): Promise<void> {
    const at = new Date();
    const availability = await this.#availability.check();
    const outcome: PollOutcome = { at: at.toISOString() };
    let pods: Sample[] | undefined;
    let nodes: Sample[] | undefined;
    if (!availability.available) {
      outcome.podsError = availability.diagnosis;
      outcome.nodesError = availability.diagnosis;
    } else {
      // Watching namespaces (--namespace, or those the identity may read), pod metrics are read in each and
      // nothing is read across the cluster.
      const namespaces = this.#cluster.cache.namespaces;
      const podsFailed = (error: string) => {
        outcome.podsError = error;
      };
      [pods, nodes] = await Promise.all([
        namespaces
          ? Promise.all(namespaces.map((ns) => this.#read(metricsPath('pods', ns), podsFailed))).then(
              (parts) =>
                parts.some((part) => part === undefined) ? undefined : parts.flatMap((part) => part ?? []),
            )
          : this.#read(metricsPath('pods'), podsFailed),
        namespaces
          ? Promise.resolve(undefined)
          : this.#read(metricsPath('nodes'), (error) => {
              outcome.nodesError = error;
            }),
      ]);
    }
    this.history.record(at, pods, nodes);
    const failure = outcome.podsError ?? outcome.nodesError;
    if (failure && failure !== (this.last?.podsError ?? this.last?.nodesError)) {
      this.#options.log('metrics poll failed; history has gaps until it works again', { error: failure });
    }
    this.last = outcome;
  }

  #read(path: string, fail: (error: string) => void): Promise<Sample[] | undefined> {
    return readSamples(this.#cluster.client, path).catch((error: Error) => {
      fail(error.message);
      return undefined;
    });
  }
}
