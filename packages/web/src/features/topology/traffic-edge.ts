import type { FlowPair } from '../traffic/flows.ts';

/**
 * What a `traffic` edge carries in `data`: a flow pair's counts without its ends, as both the agent's traffic
 * view of the topology and the traffic page give them (the agent's `TrafficFlowPair`).
 */
export type TrafficCounts = Omit<FlowPair, 'id' | 'source' | 'destination'>;

/** Dropped: a flow the datapath refused or failed; errors: HTTP 5xx answers; ok: neither. */
export type TrafficState = 'ok' | 'errors' | 'dropped';

/** Readable on light and dark backgrounds, as the health colours are. */
export const trafficColor: Record<TrafficState, string> = {
  ok: '#0d9488',
  errors: '#d97706',
  dropped: '#dc2626',
};

export const droppedFlows = (c: TrafficCounts) => (c.verdicts.dropped ?? 0) + (c.verdicts.error ?? 0);

export function trafficState(c: TrafficCounts): TrafficState {
  if (droppedFlows(c) > 0) return 'dropped';
  return c.errors > 0 ? 'errors' : 'ok';
}

/** How much went between the pair: bytes where the source counts them, else flow events. */
export const volume = (c: TrafficCounts) => c.bytes ?? c.flows;

/** Two significant digits, no exponent: `0.0067`, `1.3`, `120`. */
export const perSecond = (rate: number) =>
  rate >= 100 ? String(Math.round(rate)) : String(Number(rate.toPrecision(2)));

export const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

export function byteSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The edge's label: the rate (requests where there are any, else bytes or flows), then what went wrong. */
export function trafficLabel(c: TrafficCounts): string {
  const amount =
    c.requests > 0
      ? `${perSecond(c.requestRate)} req/s`
      : c.bytes !== undefined
        ? byteSize(c.bytes)
        : counted(c.flows, 'flow');
  const dropped = droppedFlows(c);
  const trouble = [
    c.errors > 0 ? `${percent(c.errorRate)} 5xx` : '',
    dropped > 0 ? `${dropped} dropped` : '',
  ].filter(Boolean);
  return [amount, ...trouble].join(' · ');
}

/** The ports a pair used, `TCP 8080, UDP 53`. */
export const portsOf = (c: TrafficCounts) =>
  c.ports.map((p) => `${p.protocol}${p.port === undefined ? '' : ` ${p.port}`}`).join(', ');

/** Stroke width from 1.5 to 7 px on a log scale of the pair's volume against the busiest pair's. */
export function trafficWidth(c: TrafficCounts, busiest: number): number {
  if (busiest <= 1) return 2;
  return 1.5 + (5.5 * Math.log(1 + volume(c))) / Math.log(1 + busiest);
}
