import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { type HubConfig, hubDefaults } from './config/hub-config.ts';
import { createHub } from './hub.ts';

/** The hub's OpenAPI document, as /api/openapi.json serves it (docs/api/hub-openapi.json is its snapshot). */
export async function hubOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-hub-openapi-'));
  const hub = await createHub(
    {
      ...(hubDefaults() as HubConfig),
      publicUrl: 'http://localhost:9380',
      dataDir,
      secretKey: 'a'.repeat(64),
    },
    { log: pino({ level: 'silent' }) },
  );
  try {
    await hub.app.ready();
    return hub.app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await hub.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
