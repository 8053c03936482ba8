import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { hubProcessBreakGlass, type HubProcess as SpawnedHub, spawnHub } from '@binnacle/testkit';

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

export interface RssSamples {
  samples: number;
  peakRssMB: number;
  /** Peak RSS of the process since it started (the kernel's, so nothing between two samples is missed). */
  hwmMB: number;
}

/** A full collection of a few hundred MB of heap takes well under this. */
const gcWaitMs = 500;
const mb = (bytes: number) => Math.round(bytes / 104857.6) / 10;

/** VmRSS and VmHWM of a process, from /proc. */
async function residentMB(pid: number): Promise<{ rssMB: number; hwmMB: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMB: mb(kb('VmRSS') * 1024), hwmMB: mb(kb('VmHWM') * 1024) };
}

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
      return { ...(await residentMB(hub.pid)), ...(await heapFigures(hub.url)) };
    },
    sampleRss(everyMs, maxSamples) {
      let samples = 0;
      let peakRssMB = 0;
      let failure: unknown;
      const read = () =>
        residentMB(hub.pid).then(
          ({ rssMB }) => {
            samples += 1;
            peakRssMB = Math.max(peakRssMB, rssMB);
          },
          (error: unknown) => {
            failure ??= error;
          },
        );
      let pending = read();
      const timer = setInterval(() => {
        if (samples >= maxSamples) return clearInterval(timer);
        pending = pending.then(read);
      }, everyMs);
      return async () => {
        clearInterval(timer);
        await pending;
        await read();
        if (failure) throw failure;
        return { samples, peakRssMB, hwmMB: (await residentMB(hub.pid)).hwmMB };
      };
    },
  };
}
