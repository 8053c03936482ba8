import { processMemory } from '@binnacle/testkit';

const tenths = (mb: number) => Math.round(mb * 10) / 10;

/** A process's RSS now and its peak (VmHWM), in MB to a tenth: testkit's `processMemory`, rounded for reports. */
export async function memoryOf(pid: number | undefined): Promise<{ rssMB: number; peakMB: number }> {
  if (pid === undefined) throw new Error('the process has no pid: it did not start');
  const { rssMB, peakMB } = await processMemory(pid);
  return { rssMB: tenths(rssMB), peakMB: tenths(peakMB) };
}

export interface RssSamples {
  samples: number;
  peakRssMB: number;
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
  let peakRssMB = 0;
  let failure: unknown;
  const read = () =>
    memoryOf(pid).then(
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
    return { samples, peakRssMB, hwmMB: (await memoryOf(pid)).peakMB };
  };
}
