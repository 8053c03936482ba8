import { StoreUnavailable } from './client.ts';
import type { Connection, MetricsStores } from './stores.ts';

// What every answer read from the metrics store carries, for each feature that reads it (metricsdb, cost): the
// store it came from, or why there is none. The schemas of both are in ./schemas.ts.

interface Unavailable {
  available: false;
  reason: string;
  tried?: string[];
}

const describeStore = (c: Connection) => ({
  kind: c.kind,
  version: c.version,
  origin: c.origin,
  via: c.via,
  ...(c.service ? { service: c.service } : {}),
  // A port-forward's loopback URL means nothing to a reader; the service names the store.
  ...(c.via === 'port-forward' ? {} : { url: c.endpoint.url }),
});

/**
 * Runs reads against the store in use. No store, or one that stops answering, is an ordinary answer
 * (`available: false` with the reason), never an error; a refused query stays a 400.
 */
export async function withStore<T extends object>(
  stores: MetricsStores,
  read: (connection: Connection) => Promise<T>,
): Promise<(T & { available: true; store: ReturnType<typeof describeStore> }) | Unavailable> {
  const state = await stores.resolve();
  if (!state.available) return { available: false, reason: state.reason, tried: state.tried };
  try {
    return { available: true, store: describeStore(state.connection), ...(await read(state.connection)) };
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    return stores.lost(`the metrics store stopped answering: ${error.message}`);
  }
}

export async function storeStatus(stores: MetricsStores) {
  const state = await stores.resolve();
  if (!state.available) return { available: false as const, reason: state.reason, tried: state.tried };
  return { available: true as const, store: describeStore(state.connection) };
}
