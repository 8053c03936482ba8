import { processMemory } from '@binnacle/testkit';

const tenths = (mb: number) => Math.round(mb * 10) / 10;

/**
 * A process's RSS now (with its anonymous and file-backed parts: the heap and buffers, and the pages of the `node`
 * binary and the libraries it touched) and its peak (VmHWM), in MB to a tenth: testkit's `processMemory`, rounded.
 */
export async function memoryOf(
  pid: number | undefined,
): Promise<{ rssMB: number; peakMB: number; anonMB: number; fileMB: number }> {
  if (pid === undefined) throw new Error('the process has no pid: it did not start');
  const { rssMB, peakMB, anonMB, fileMB } = await processMemory(pid);
  return { rssMB: tenths(rssMB), peakMB: tenths(peakMB), anonMB: tenths(anonMB), fileMB: tenths(fileMB) };
}

export interface RssSamples {
  samples: number;
  peakRssMB: number;
  /** The highest sample's anonymous and file-backed parts. */
  peakAnonMB: number;
  peakFileMB: number;
  /** Peak RSS of the process since it started (the kernel's, so nothing between two samples is missed). */
  hwmMB: number;
}

/**
 * Samples a process's RSS every `everyMs` (what the kernel sees while it works) until the returned function is
 * called, at most `maxSamples` times; then the highest sample and VmHWM.
 */
export function sampleRss(
  pid: number | undefined,
  everyMs: number,
  maxSamples: number,
): () => Promise<RssSamples> {
  let samples = 0;
  let peak = { rssMB: 0, anonMB: 0, fileMB: 0 };
  let failure: unknown;
  const read = () =>
    memoryOf(pid).then(
      (memory) => {
        samples += 1;
        if (memory.rssMB > peak.rssMB) peak = memory;
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
    return {
      samples,
      peakRssMB: peak.rssMB,
      peakAnonMB: peak.anonMB,
      peakFileMB: peak.fileMB,
      hwmMB: (await memoryOf(pid)).peakMB,
    };
  };
}
