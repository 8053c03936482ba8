import { readFile } from 'node:fs/promises';

/** User + system CPU time of a process (ms), from /proc (clock ticks of 10 ms). */
export async function processCpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** User + system CPU time of this (the bench) process so far, in ms. */
export const benchCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * CPU time the hub process and the bench process spend between `start` and `stop`: on a 2-core machine shared
 * with other work, which side burns the time shows whether the hub or the load generator is the bottleneck.
 */
export async function cpuSpent(hubPid: number) {
  const hubFrom = await processCpuMs(hubPid);
  const benchFrom = benchCpuMs();
  const wallFrom = performance.now();
  return async () => ({
    hubMs: (await processCpuMs(hubPid)) - hubFrom,
    benchMs: Math.round(benchCpuMs() - benchFrom),
    wallMs: Math.round(performance.now() - wallFrom),
  });
}
