/** Byte sizes as Kubernetes writes quantities: `512Mi`, `1Gi`, `100M`, `65536`. */
const units: Record<string, number> = {
  '': 1,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
};

export class SizeError extends Error {}

export function parseSize(value: string, setting: string): number {
  const match = /^(\d+(?:\.\d+)?)([KMGT]i?)?$/.exec(value.trim());
  if (!match) throw new SizeError(`${setting}: "${value}" is not a size like 512Mi, 1Gi or 100M`);
  return Math.round(Number(match[1]) * (units[match[2] ?? ''] ?? 1));
}
