import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiServerOnly, apiServerOnlyUp, testCluster } from '@binnacle/testkit';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeconfigWithContexts, startTestAgent, type TestAgent } from '../../testing/index.ts';

const cluster = testCluster();
const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
let second: ApiServerOnly;
let secondKubeconfig: string;
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let kubeconfig: string;

const secret = (name: string, data: Record<string, string>) =>
  core.createNamespacedSecret({
    namespace: ns.name,
    body: {
      metadata: { name },
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
    },
  });

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-capi-'));
  [second, ns] = await Promise.all([apiServerOnlyUp(join(dir, 'second')), cluster.namespace('capi')]);
  secondKubeconfig = await readFile(second.kubeconfig, 'utf8');
  const secondKc = new KubeConfig();
  secondKc.loadFromFile(second.kubeconfig);
  await secondKc.makeApiClient(CoreV1Api).createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name: 'workload-cluster' }, data: { made: 'by capi' } },
  });
  await Promise.all([
    secret('workload-kubeconfig', { value: secondKubeconfig }),
    secret('broken-kubeconfig', { kubeconfig: secondKubeconfig }),
  ]);
  kubeconfig = join(dir, 'kubeconfig');
  // A mode other than the usual 0600, to see the merge keep it.
  await kubeconfigWithContexts(kubeconfig, { shared: cluster.kubeconfigPath() }, 'shared', 0o640);
  agent = await startTestAgent({ config: { kubeconfig } });
});

afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
  await second?.down();
});

describe('Cluster API clusters', () => {
  it("serves a cluster's kubeconfig from its Secret as a YAML attachment", async () => {
    const res = await agent.request(`/api/capi/clusters/${ns.name}/workload/kubeconfig`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-yaml/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="workload.kubeconfig"');
    expect(await res.text()).toBe(secondKubeconfig);
  });

  it('answers 422 for a Secret without the kubeconfig key and 404 for a cluster without a Secret', async () => {
    const broken = await agent.request(`/api/capi/clusters/${ns.name}/broken/kubeconfig`);
    expect(broken.status).toBe(422);
    expect(await broken.json()).toMatchObject({
      code: 'kubeconfig_invalid',
      error: expect.stringContaining('"value"'),
    });
    expect((await agent.request(`/api/capi/clusters/${ns.name}/absent/kubeconfig`)).status).toBe(404);
    const before = await readFile(kubeconfig, 'utf8');
    expect((await agent.post(`/api/capi/clusters/${ns.name}/broken/connect`)).status).toBe(422);
    expect(await readFile(kubeconfig, 'utf8')).toBe(before);
  });

  it("connect merges the cluster into the agent's kubeconfig file, keeping its mode, and switches to it", async () => {
    const res = await agent.post(`/api/capi/clusters/${ns.name}/workload/connect`);
    expect(res.status).toBe(200);
    const context = `capi-${ns.name}-workload`;
    expect(await res.json()).toMatchObject({
      status: 'connected',
      context,
      connection: { state: 'connected', context },
    });

    expect((await stat(kubeconfig)).mode & 0o777).toBe(0o640);
    const file = parse(await readFile(kubeconfig, 'utf8')) as {
      'current-context': string;
      contexts: { name: string; context: { cluster: string; user: string } }[];
      clusters: { name: string; cluster: { server: string } }[];
    };
    expect(file['current-context']).toBe('shared');
    expect(file.contexts.map((c) => c.name)).toEqual(['shared', context]);
    expect(file.contexts[1]?.context).toEqual({ cluster: context, user: context });
    expect(file.clusters.find((c) => c.name === context)?.cluster.server).toBe(second.server);

    const contexts = await agent.json<{ current: string; items: { name: string }[] }>('/api/contexts');
    expect(contexts.current).toBe(context);
    expect(contexts.items.map((c) => c.name)).toEqual(['shared', context]);
    const configMap = await agent.json<{ resource: { data: Record<string, string> } }>(
      '/api/resources/configmaps/default/workload-cluster',
    );
    expect(configMap.resource.data).toEqual({ made: 'by capi' });
  });
});
