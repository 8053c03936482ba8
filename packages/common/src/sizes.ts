import { parseQuantity } from './quantities.ts';

export class SizeError extends Error {}

/** What a byte size looks like (the subset of quantities that counts bytes); also the pattern in schemas. */
export const sizePattern = '^[0-9.]+([kMGTPE]|[KMGTPE]i)?$';
const size = new RegExp(sizePattern);

/** A byte size as Kubernetes writes quantities (`512Mi`, `1Gi`, `100M`, `65536`), for a setting named in errors. */
export function parseSize(value: string, setting: string): number {
  const bytes = size.test(value.trim()) ? parseQuantity(value) : undefined;
  if (bytes === undefined)
    throw new SizeError(`${setting}: "${value}" is not a size like 512Mi, 1Gi or 100M`);
  return Math.round(bytes);
}
