import { testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import type { TestAgent } from './test-agent.ts';

/** Credentials planted where workloads commonly leak them: no AI view or MCP tool may return any of them. */
export const planted = {
  secretValue: 'hunter2-secret-value',
  envPassword: 'hunter2-env-password',
  githubToken: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  apiKeyArg: 'k-planted-api-key-0123',
  configPassword: 'hunter2-config-password',
  urlPassword: 'hunter2-url-password',
  logPassword: 'hunter2-log-password',
  logAwsKey: 'AKIAIOSFODNN7PLANTED',
};

/** The planted values a text gives away. */
export const leaks = (text: string) => Object.values(planted).filter((value) => text.includes(value));

/**
 * Plants them in a namespace: a Secret (and the last-applied copy of it), a ConfigMap, a Deployment's env and
 * arguments; and in the pods' log, through a request the simulated workload logs with its query string. Resolves
 * once the Deployment's pod runs and the agent has it.
 */
export async function plantSecrets(agent: TestAgent, namespace: string): Promise<void> {
  const cluster = testCluster();
  const kc = cluster.kubeConfig('admin');
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespacedSecret({
    namespace,
    body: {
      metadata: {
        name: 'db',
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            stringData: { password: planted.secretValue },
          }),
        },
      },
      stringData: { password: planted.secretValue, user: 'shop' },
    },
  });
  await core.createNamespacedConfigMap({
    namespace,
    body: {
      metadata: { name: 'settings' },
      data: {
        DB_PASSWORD: planted.configPassword,
        'app.yaml': `db:\n  url: postgres://shop:${planted.urlPassword}@db:5432/shop\n  pool: 5`,
        LOG_LEVEL: 'info',
      },
    },
  });
  await kc.makeApiClient(AppsV1Api).createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'ghcr.io/acme/web:1.0',
                args: ['--api-key', planted.apiKeyArg, '--port=8080'],
                env: [
                  { name: 'DB_PASSWORD', value: planted.envPassword },
                  { name: 'GREETING', value: `hello ${planted.githubToken}` },
                  { name: 'LOG_LEVEL', value: 'info' },
                  { name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
                ],
              },
            ],
          },
        },
      },
    },
  });
  // Every simulated pod serves the log the workload simulator writes, which logs each request with its query.
  const login = `/login?user=ada&password=${planted.logPassword}&aws_key=${planted.logAwsKey}`;
  await fetch(`http://127.0.0.1:${cluster.state.ports.podSim}${login}`);
  await waitUntil(
    'the Deployment ready and its pod in the cache',
    async () => {
      const pods = await agent.json<{ items: unknown[] }>(`/api/ai/resources/pods?namespace=${namespace}`);
      const web = await agent.json<{ resource: string }>(
        `/api/ai/resources/deployments/${namespace}/web?verbosity=compact`,
      );
      return pods.items.length === 1 && web.resource.includes('1/1 ready');
    },
    { timeoutMs: 30_000, intervalMs: 250 },
  );
}
