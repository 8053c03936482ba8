import type { ContainerUsage, Sample, Usage } from './usage.ts';

export interface HistoryPoint extends Usage {
  timestamp: string;
  containers?: ContainerUsage[];
}

/** One value per poll in a fixed ring; NaN where the object had no sample in that poll. */
interface Ring {
  cpu: Float32Array;
  memory: Float32Array;
}

interface Series {
  /** Per container for pods; nodes keep one ring under the empty name. */
  rings: Map<string, Ring>;
  lastSeen: number;
}

const total = '';

/**
 * A bounded in-memory history of pod and node usage: the last `capacity` polls, one sample per object per
 * poll. Polls share one ring of times; each container (or node) has two float rings of the same length, so
 * memory is fixed per object (about 8 bytes × capacity per container) however long the agent runs. An
 * object that misses a whole ring of polls is dropped.
 */
export class MetricsHistory {
  readonly capacity: number;
  readonly #times: number[] = [];
  #polls = 0;
  readonly #pods = new Map<string, Series>();
  readonly #nodes = new Map<string, Series>();

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Polls recorded since start (not bounded by capacity). */
  get polls(): number {
    return this.#polls;
  }

  /** Series kept: pods and nodes (bounded by what exists plus one ring of departed objects). */
  get size(): { pods: number; nodes: number } {
    return { pods: this.#pods.size, nodes: this.#nodes.size };
  }

  /** Records one poll; an undefined side (its list failed) leaves gaps for every object of that side. */
  record(at: Date, pods: Sample[] | undefined, nodes: Sample[] | undefined): void {
    const poll = this.#polls++;
    const slot = poll % this.capacity;
    this.#times[slot] = at.getTime();
    this.#store(this.#pods, poll, slot, pods, (s) => `${s.namespace}/${s.name}`);
    this.#store(this.#nodes, poll, slot, nodes, (s) => s.name);
  }

  pod(namespace: string, name: string): HistoryPoint[] | undefined {
    const series = this.#pods.get(`${namespace}/${name}`);
    return series && this.#points(series, true);
  }

  node(name: string): HistoryPoint[] | undefined {
    const series = this.#nodes.get(name);
    return series && this.#points(series, false);
  }

  /** A pod's usage in the last poll (its containers summed); undefined when that poll had no sample of it. */
  latestPod(namespace: string, name: string): Usage | undefined {
    return this.#latest(this.#pods.get(`${namespace}/${name}`));
  }

  /** A node's usage in the last poll; undefined when that poll had no sample of it. */
  latestNode(name: string): Usage | undefined {
    return this.#latest(this.#nodes.get(name));
  }

  #latest(series: Series | undefined): Usage | undefined {
    if (!series || series.lastSeen !== this.#polls - 1) return undefined;
    const slot = (this.#polls - 1) % this.capacity;
    let cpuMillicores = 0;
    let memoryBytes = 0;
    for (const ring of series.rings.values()) {
      const cpu = ring.cpu[slot] ?? Number.NaN;
      if (Number.isNaN(cpu)) continue;
      cpuMillicores += cpu;
      memoryBytes += ring.memory[slot] ?? 0;
    }
    return { cpuMillicores, memoryBytes };
  }

  #store(
    all: Map<string, Series>,
    poll: number,
    slot: number,
    samples: Sample[] | undefined,
    keyOf: (sample: Sample) => string,
  ): void {
    for (const [key, series] of all) {
      for (const ring of series.rings.values()) {
        ring.cpu[slot] = Number.NaN;
        ring.memory[slot] = Number.NaN;
      }
      if (poll - series.lastSeen >= this.capacity) all.delete(key);
    }
    for (const sample of samples ?? []) {
      const key = keyOf(sample);
      let series = all.get(key);
      if (!series) {
        series = { rings: new Map(), lastSeen: poll };
        all.set(key, series);
      }
      series.lastSeen = poll;
      for (const part of sample.containers ?? [{ ...sample, name: total }]) {
        let ring = series.rings.get(part.name);
        if (!ring) {
          ring = {
            cpu: new Float32Array(this.capacity).fill(Number.NaN),
            memory: new Float32Array(this.capacity).fill(Number.NaN),
          };
          series.rings.set(part.name, ring);
        }
        ring.cpu[slot] = part.cpuMillicores;
        ring.memory[slot] = part.memoryBytes;
      }
    }
  }

  #points(series: Series, perContainer: boolean): HistoryPoint[] {
    const points: HistoryPoint[] = [];
    const first = Math.max(0, this.#polls - this.capacity);
    for (let poll = first; poll < this.#polls; poll++) {
      const slot = poll % this.capacity;
      const containers: ContainerUsage[] = [];
      for (const [name, ring] of series.rings) {
        const cpu = ring.cpu[slot] ?? Number.NaN;
        if (Number.isNaN(cpu)) continue;
        containers.push({
          name,
          cpuMillicores: Math.round(cpu * 1000) / 1000,
          memoryBytes: Math.round(ring.memory[slot] ?? 0),
        });
      }
      if (containers.length === 0) continue;
      const point: HistoryPoint = {
        timestamp: new Date(this.#times[slot] ?? 0).toISOString(),
        cpuMillicores: Math.round(containers.reduce((sum, c) => sum + c.cpuMillicores, 0) * 1000) / 1000,
        memoryBytes: containers.reduce((sum, c) => sum + c.memoryBytes, 0),
      };
      if (perContainer) point.containers = containers;
      points.push(point);
    }
    return points;
  }
}
