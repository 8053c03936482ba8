import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverLogger } from '@binnacle/common/server';
import { describe, expect, it } from 'vitest';
import { configDefaults } from '../config/agent-config.ts';
import { SessionRegistry } from '../http/sessions.ts';
import type { ClusterTarget } from '../kube/kubeconfig.ts';
import { ClusterScope } from './cluster-scope.ts';
import { ClusterConnection } from './connection.ts';

const inCluster: ClusterTarget = {
  source: 'in-cluster',
  kubeconfigFiles: [],
  contextName: 'inClusterContext',
  clusterName: 'inCluster',
  defaultNamespace: 'binnacle',
  server: new URL('https://10.96.0.1:443'),
  authMethod: 'token',
  tls: { rejectUnauthorized: true },
  authHeaders: () => Promise.resolve({}),
  contexts: ['inClusterContext'],
};

describe('ClusterConnection in a cluster', () => {
  it('has the one in-cluster context and refuses to switch with a clear 400', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-connection-'));
    const config = { ...configDefaults(), dataDir };
    const log = serverLogger('error');
    const sessions = new SessionRegistry();
    const closed: string[] = [];
    sessions.open('logs', 'ns/pod', (reason) => closed.push(reason));
    const connection = new ClusterConnection(
      await ClusterScope.open(config, inCluster, log, 'inClusterContext'),
      config,
      sessions,
      log,
    );
    try {
      expect(connection.contexts()).toEqual([
        {
          name: 'inClusterContext',
          cluster: 'inCluster',
          server: 'https://10.96.0.1',
          namespace: 'binnacle',
          current: true,
        },
      ]);
      await expect(connection.switchTo('other')).rejects.toMatchObject({
        code: 'invalid_request',
        status: 400,
        message: expect.stringContaining('cannot switch'),
      });
      expect(closed).toEqual([]);
      expect(connection.status()).toMatchObject({
        state: 'connecting',
        context: 'inClusterContext',
        inCluster: true,
      });
    } finally {
      await connection.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
