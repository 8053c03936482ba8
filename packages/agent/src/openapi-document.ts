import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createAgent } from './agent.ts';
import { configDefaults } from './config/agent-config.ts';
import type { ClusterTarget } from './kube/kubeconfig.ts';

/** A target that is never dialled: building the routes needs no cluster. */
export const offlineTarget: ClusterTarget = {
  source: 'kubeconfig',
  kubeconfigFiles: [],
  contextName: 'openapi',
  clusterName: 'openapi',
  server: new URL('https://127.0.0.1:1'),
  authMethod: 'none',
  tls: { rejectUnauthorized: true },
  authHeaders: () => Promise.resolve({}),
  contexts: [],
};

/** The agent's OpenAPI document, as /api/openapi.json serves it (docs/api/agent-openapi.json is its snapshot). */
export async function agentOpenApiDocument(): Promise<Record<string, unknown>> {
  const agent = await createAgent(
    { ...configDefaults(), dataDir: join(tmpdir(), 'binnacle-openapi') },
    offlineTarget,
    pino({ level: 'silent' }),
  );
  try {
    await agent.app.ready();
    return agent.app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await agent.close();
  }
}
