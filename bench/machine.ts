import { cpus, platform, release, totalmem } from 'node:os';

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
