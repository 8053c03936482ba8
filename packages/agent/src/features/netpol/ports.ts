/**
 * A set of port numbers as sorted, disjoint, non-adjacent inclusive ranges. Directions are evaluated to the
 * set of ports they open rather than to a yes/no, so "is any port open end to end" is an intersection and not
 * two answers that may be about different ports.
 */
export type PortSet = readonly (readonly [number, number])[];

const minPort = 1;
const maxPort = 65535;
export const allPorts: PortSet = [[minPort, maxPort]];
export const noPorts: PortSet = [];

export const portRange = (from: number, to = from): PortSet => (from <= to ? [[from, to]] : noPorts);

export function unionPorts(a: PortSet, b: PortSet): PortSet {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const sorted = [...a, ...b].sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

export function intersectPorts(a: PortSet, b: PortSet): PortSet {
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [aFrom, aTo] = a[i] as readonly [number, number];
    const [bFrom, bTo] = b[j] as readonly [number, number];
    const from = Math.max(aFrom, bFrom);
    const to = Math.min(aTo, bTo);
    if (from <= to) out.push([from, to]);
    if (aTo < bTo) i += 1;
    else j += 1;
  }
  return out;
}

export const overlaps = (a: PortSet, b: PortSet) => intersectPorts(a, b).length > 0;

/** `all`, `none`, or the ranges: `80, 8000-8080`. */
export function formatPorts(set: PortSet): string {
  if (set.length === 0) return 'none';
  if (set.length === 1 && set[0]?.[0] === minPort && set[0]?.[1] === maxPort) return 'all';
  return set.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join(', ');
}
