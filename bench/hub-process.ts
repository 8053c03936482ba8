import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { hubProcessBreakGlass, type HubProcess as SpawnedHub, spawnHub } from '@binnacle/testkit';
import { memoryOf, type RssSamples, sampleRss } from './process-memory.ts';

export const breakGlass = hubProcessBreakGlass;

export interface HubMemory {
  rssMB: number;
  /** Peak RSS of the process so far. */
  hwmMB: number;
  heapUsedMB: number;
  externalMB: number;
}

export interface HubProcess extends SpawnedHub {
  /** Figures right after a full garbage collection in the hub (see hub-gc-signal.ts). */
  memory(): Promise<HubMemory>;
  /**
   * Samples the hub's RSS every `everyMs` (no collection forced: what the kernel sees while the hub works)
   * until the returned function is called, at most `maxSamples` times; then the highest sample and VmHWM.
   */
  sampleRss(everyMs: number, maxSamples: number): () => Promise<RssSamples>;
}

/** A full collection of a few hundred MB of heap takes well under this. */
const gcWaitMs = 500;
const mb = (bytes: number) => Math.round(bytes / 104857.6) / 10;

/** Gauges from the hub's own /metrics (prom-client default metrics), so heap growth shows apart from RSS. */
async function heapFigures(url: string): Promise<{ heapUsedMB: number; externalMB: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) =>
    Number(new RegExp(`^binnacle_hub_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    heapUsedMB: mb(gauge('nodejs_heap_size_used_bytes')),
    externalMB: mb(gauge('nodejs_external_memory_bytes')),
  };
}

/**
 * The hub in its own process (testkit's spawnHub), able to collect its garbage on SIGUSR2: its RSS is then
 * the hub's alone, not the load generator's or the agents'. `nodeArgs` adds Node options (e.g. `--cpu-prof`).
 */
export async function startHubProcess(options: { nodeArgs?: string[] } = {}): Promise<HubProcess> {
  const hub = await spawnHub({
    nodeArgs: [
      '--expose-gc',
      '--import',
      pathToFileURL(join(import.meta.dirname, 'hub-gc-signal.ts')).href,
      ...(options.nodeArgs ?? []),
    ],
  });
  return {
    ...hub,
    async memory() {
      process.kill(hub.pid, 'SIGUSR2');
      await sleep(gcWaitMs);
      const { rssMB, peakMB } = await memoryOf(hub.pid);
      return { rssMB, hwmMB: peakMB, ...(await heapFigures(hub.url)) };
    },
    sampleRss: (everyMs, maxSamples) => sampleRss(hub.pid, everyMs, maxSamples),
  };
}
