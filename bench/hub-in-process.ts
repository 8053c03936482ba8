import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverLogger } from '@binnacle/common/server';
import { createHub, type Hub, type HubConfig, hubDefaults, validateHubConfig } from '@binnacle/hub';
import { breakGlass } from './hub-process.ts';

export const publicUrl = 'https://hub.binnacle.test';

/**
 * A real hub in this process on 127.0.0.1 (SQLite in a temporary data dir, or the given PostgreSQL database),
 * for benchmarks that read or set its state directly; gone with its data dir afterwards. Warnings go nowhere
 * (logging must not be what is measured) but are counted, so a noisy run shows.
 */
export async function withHubInProcess<T>(
  databaseUrl: string | undefined,
  body: (hub: Hub, url: string, warnings: () => number) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-bench-hub-'));
  let warnings = 0;
  try {
    const config = validateHubConfig(
      {
        ...(hubDefaults() as HubConfig),
        publicUrl,
        port: 0,
        listenAddress: '127.0.0.1',
        dataDir,
        databaseUrl,
        breakGlassEmail: breakGlass.email,
        breakGlassPassword: breakGlass.password,
        secretKey: 'b'.repeat(64),
        debugRequests: false,
      },
      {},
    );
    const counter = {
      write: () => {
        warnings += 1;
      },
    };
    const hub = await createHub(config, { log: serverLogger('warn', counter) });
    try {
      return await body(hub, await hub.listen(), () => warnings);
    } finally {
      await hub.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
