import { cpus, loadavg, platform, release, totalmem } from 'node:os';

/** The machine a result was measured on, recorded with every result. */
export function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model,
    cores: cpu.length,
    memoryGB: Math.round(totalmem() / 1024 ** 3),
    os: `${platform()} ${release()}`,
  };
}

/** The machine's 1, 5 and 15-minute load averages: a timing on 2 shared cores needs its load beside it. */
export const loadAverage = () => loadavg().map((l) => Math.round(l * 100) / 100);
