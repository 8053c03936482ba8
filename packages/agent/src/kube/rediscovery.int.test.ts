import { randomBytes } from 'node:crypto';
import { serverLogger } from '@binnacle/common/server';
import { type ApiServerProxy, startApiServerProxy, testCluster, waitUntil } from '@binnacle/testkit';
import { ApiextensionsV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestAgent } from '../testing/index.ts';
import { condition } from './health.ts';

const kc = testCluster().kubeConfig();
const crds = kc.makeApiClient(ApiextensionsV1Api);
const customObjects = kc.makeApiClient(CustomObjectsApi);
const opened: { close(): Promise<void> }[] = [];

afterAll(async () => {
  for (const thing of opened.reverse()) await thing.close();
});

describe('a CRD added while the agent loses the API server', () => {
  it('is watched once the failed rediscovery it asked for is retried', async () => {
    // Only this agent reaches the API server through the proxy: the shared API server itself stays up.
    const proxy: ApiServerProxy = await startApiServerProxy();
    opened.push(proxy);
    const lines: string[] = [];
    const agent = await startTestAgent({
      config: { kubeconfig: proxy.kubeconfigPath },
      log: serverLogger('info', { write: (line: string) => void lines.push(line) }),
    });
    opened.push(agent);
    const logged = (text: string) => lines.filter((line) => line.includes(text));

    const group = `retry-${randomBytes(3).toString('hex')}.binnacle.test`;
    const name = `widgets.${group}`;
    // The API server goes away for this agent the moment its cache sees the CRD established: the rediscovery
    // that change asked for is at most a second (the debounce) away, and no later change of the CRD is left for
    // the informer's relist to replay, so only a retry of the failed rediscovery can find the new kind.
    let cut: Promise<void> | undefined;
    const unsubscribe = agent.agent.ctx.cluster.cache.onEvent((event) => {
      if (!cut && event.object.metadata?.name === name && condition(event.object, 'Established') === 'True')
        cut = proxy.stop();
    });
    await crds.createCustomResourceDefinition({
      body: {
        metadata: { name },
        spec: {
          group,
          scope: 'Cluster',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
            },
          ],
        },
      },
    });
    opened.push({ close: async () => void (await crds.deleteCustomResourceDefinition({ name })) });
    await waitUntil('the agent to see the CRD established', () => Promise.resolve(cut !== undefined), {
      timeoutMs: 30_000,
      intervalMs: 20,
    });
    unsubscribe();
    await cut;
    await customObjects.createClusterCustomObject({
      group,
      version: 'v1',
      plural: 'widgets',
      body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'made-while-away' } },
    });
    await waitUntil(
      'the rediscovery to fail',
      () => Promise.resolve(logged('rediscovery after a CRD change failed').length > 0),
      { timeoutMs: 10_000, intervalMs: 20 },
    );

    await proxy.resume();
    // The retry waits about 1 s, then 2 s, 4 s … while the proxy is down: 20 s is far past the first retries.
    await waitUntil(
      'the agent to serve the Widget made while it was away',
      async () => (await agent.request(`/api/resources/${name}/_/made-while-away`)).status === 200,
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    expect(logged('rediscovery after a CRD change failed')).toHaveLength(1);
    expect(logged('rediscovery after a CRD change succeeded')).toHaveLength(1);
  }, 60_000);
});
