import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8 flags that keep a long-running command's heap near its live data (ADR 0105). V8 sizes the next full
 * collection from the last one's survivors times a growing factor that reaches 4 when the heap grows fast, so an
 * agent holding 90 MB of cached objects let a burst of list answers take its heap past 250 MB before collecting,
 * and kept those pages; 1.25 collects sooner. The young generation stays at its first size instead of doubling up
 * to 64 MB under the load of a sync or of large answers: what survives a scavenge is promoted sooner (about a
 * sixth more CPU for a 10 000-pod list, measured), and RSS stays ~150 MB lower under that load. Both are read at
 * each collection, so setting them at start takes effect; `--max-semi-space-size` would not (it is read when the
 * heap is set up).
 *
 * The hub keeps V8's own sizing (ADR 0125): it holds no large cache, and every tunneled request's ~30 KB lives a
 * few milliseconds. Pinned at 1 MB, the young generation was scavenged every few milliseconds under load and
 * promoted the requests then in flight, and the old generation, collected at a quarter over its survivors, was
 * collected several times a second: collections were a third of the hub's CPU per tunneled request.
 */
const agentTuning = ['--heap-growing-percent=25', '--semi-space-growth-factor=1'];

/** The tuning flags of a `binnacle` command (the first argument): none for the hub. */
export const heapTuning = (command: string | undefined): string[] => (command === 'hub' ? [] : agentTuning);

/** Sets the tuning flags the process was not started with (`node` options or NODE_OPTIONS win). */
export function keepHeapNearLiveData(
  tuning: string[],
  given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)],
): void {
  const spelled = (flag: string) => flag.split('=')[0]?.replaceAll('_', '-') ?? flag;
  const named = new Set(given.map(spelled));
  for (const flag of tuning) if (!named.has(spelled(flag))) setFlagsFromString(flag);
}

/** A full collection that also returns V8's pooled pages to the system (`gc()` of `--expose-gc`). */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export function exposedCollector(): Collect {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as Collect;
  setFlagsFromString('--no-expose-gc');
  return collect;
}

export interface HeapTick {
  /** Heap in use now. */
  usedBytes: number;
  /** The lowest heap in use since the last idle collection: about the live data. */
  baselineBytes: number;
  /** The event loop's busy share since the last tick (0–1). */
  busy: number;
}

/** The process is idle and holds at least a tenth (and 8 MB) more heap than its live data: collect it now. */
export function worthCollecting(tick: HeapTick, minGrowthBytes = 8 * 1024 * 1024): boolean {
  const grown = tick.usedBytes - tick.baselineBytes;
  return tick.busy < 0.05 && grown >= Math.max(minGrowthBytes, tick.baselineBytes / 10);
}

/**
 * The memory reducer Node lacks (ADR 0113). V8 collects when the heap reaches its limit, not when the process goes
 * quiet, so the garbage of a burst of list answers or of a metrics poll stays in RSS until the next burst. Every
 * `intervalMs`, when the event loop was idle since the last look and the heap grew past its live data, this runs one
 * full collection that also hands pooled pages back. A busy process is never paused by it.
 */
export function collectWhenIdle(intervalMs = 10_000): () => void {
  const collect = exposedCollector();
  let baselineBytes = getHeapStatistics().used_heap_size;
  let lastLoop = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const loop = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(loop, lastLoop).utilization;
    lastLoop = loop;
    const usedBytes = getHeapStatistics().used_heap_size;
    baselineBytes = Math.min(baselineBytes, usedBytes);
    if (!worthCollecting({ usedBytes, baselineBytes, busy })) return;
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    baselineBytes = getHeapStatistics().used_heap_size;
    // The collection itself was busy time: the next look judges only what came after it.
    lastLoop = performance.eventLoopUtilization();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
