import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { helmBinary, hubRoleBindingsLock, repoRoot, testCluster, waitUntil } from '@binnacle/testkit';
import { AppsV1Api, CoreV1Api, NetworkingV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  agentClusterRoleRules,
  hubRoleClusterRoles,
} from '../../packages/hub/src/features/clusters/agent-rbac.ts';

const chart = resolve(repoRoot, 'charts/binnacle-agent');
const run = promisify(execFile);
const token = `bnc_${'A'.repeat(49)}`;
const cloud = ['cloud.url=https://hub.example.com', `cloud.clusterToken=${token}`];

interface Rendered {
  kind: string;
  metadata: { name: string; namespace?: string };
  subjects?: { kind: string; name: string }[];
  roleRef?: { kind?: string; name: string };
  rules?: { resources: string[]; verbs: string[]; resourceNames?: string[] }[];
  spec?: {
    policyTypes?: string[];
    ingress?: { from: unknown[]; ports: unknown[] }[];
    template?: { spec: { containers: { env: { name: string; value?: string; valueFrom?: unknown }[] }[] } };
  };
}

async function template(sets: string[]): Promise<Rendered[] | string> {
  try {
    const { stdout } = await run(await helmBinary(), [
      'template',
      'edge',
      chart,
      ...sets.flatMap((s) => ['--set', s]),
    ]);
    return parseAllDocuments(stdout)
      .map((d) => d.toJS() as Rendered)
      .filter(Boolean);
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
}

/** The environment of the agent's container as the chart renders it with these values. */
async function agentEnv(sets: string[]): Promise<{ name: string; value?: string; valueFrom?: unknown }[]> {
  const objects = await template(sets);
  if (typeof objects === 'string') throw new Error(objects);
  return objects.find((o) => o.kind === 'Deployment')?.spec?.template?.spec.containers[0]?.env ?? [];
}

const roleBindings = (objects: Rendered[]) =>
  objects
    .filter((o) => o.kind === 'ClusterRoleBinding' && o.subjects?.[0]?.kind === 'Group')
    .map((o) => `${o.subjects?.[0]?.name} → ${o.roleRef?.name}`)
    .sort();

describe('the binnacle-agent chart', () => {
  it("renders the agent's RBAC: read everything, impersonate users and groups, create access reviews", async () => {
    const objects = await template([]);
    if (typeof objects === 'string') throw new Error(objects);
    const role = objects.find((o) => o.kind === 'ClusterRole');
    expect(role?.rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ resources: ['*'], verbs: ['get', 'list', 'watch'] }),
        expect.objectContaining({ resources: ['users', 'groups'], verbs: ['impersonate'] }),
        expect.objectContaining({
          resources: ['subjectaccessreviews', 'selfsubjectaccessreviews'],
          verbs: ['create'],
        }),
      ]),
    );
    expect(roleBindings(objects)).toEqual([]); // standalone: no hub roles
    expect(role?.rules?.some((rule) => rule.verbs.includes('patch'))).toBe(false);
    // What the hub's connect page tells an agent outside the chart to apply is exactly this.
    expect(role?.rules).toEqual(agentClusterRoleRules);
  });

  it('runs the agent with a small young generation, which nodeOptions changes or turns off', async () => {
    const envOf = async (sets: string[]) =>
      (await agentEnv(sets)).find((e) => e.name === 'NODE_OPTIONS')?.value;
    expect(await envOf([])).toBe('--max-semi-space-size=4');
    expect(await envOf(['nodeOptions=--max-old-space-size=200'])).toBe('--max-old-space-size=200');
    expect(await envOf(['nodeOptions='])).toBeUndefined();
  });

  it('passes helmRepositories to the agent as --helm-repositories, and refuses a malformed source', async () => {
    const env = await agentEnv([
      'helmRepositories[0].name=internal',
      'helmRepositories[0].url=oci://registry.example.com/charts',
      'helmRepositories[1].name=bitnami',
      'helmRepositories[1].url=https://charts.bitnami.com/bitnami',
    ]);
    expect(env.find((e) => e.name === 'BINNACLE_HELM_REPOSITORIES')?.value).toBe(
      'internal=oci://registry.example.com/charts,bitnami=https://charts.bitnami.com/bitnami',
    );
    expect((await agentEnv([])).some((e) => e.name === 'BINNACLE_HELM_REPOSITORIES')).toBe(false);
    expect(await template(['helmRepositories[0].name=Internal', 'helmRepositories[0].url=ftp://x'])).toMatch(
      /helmRepositories\/0\/(name|url)/,
    );
  });

  it('grants the agent day-2 operations as itself only with rbac.operations=true', async () => {
    const objects = await template(['rbac.operations=true']);
    if (typeof objects === 'string') throw new Error(objects);
    const rules = objects.find((o) => o.kind === 'ClusterRole')?.rules ?? [];
    const may = (verb: string, resource: string) =>
      rules.some((rule) => rule.verbs.includes(verb) && rule.resources.includes(resource));
    for (const [verb, resource] of [
      ['patch', 'deployments'],
      ['patch', 'statefulsets/scale'],
      ['patch', 'rollouts'],
      ['patch', 'cronjobs'],
      ['create', 'jobs'],
      ['patch', 'nodes'],
      ['create', 'pods/eviction'],
      ['delete', 'pods'],
    ]) {
      expect(may(verb as string, resource as string), `${verb} ${resource}`).toBe(true);
    }
    expect(await template(['rbac.operations=yes'])).toMatch(/operations/);
  });

  it('lets the agent upgrade its own Deployment only with rbac.selfUpgrade=true: its name and namespace, a Role for it alone', async () => {
    const env = await agentEnv(['rbac.selfUpgrade=true']);
    expect(env).toEqual(
      expect.arrayContaining([
        { name: 'MY_POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'MY_DEPLOYMENT_NAME', value: 'edge-binnacle-agent' },
      ]),
    );
    const objects = await template(['rbac.selfUpgrade=true']);
    if (typeof objects === 'string') throw new Error(objects);
    const role = objects.find((o) => o.kind === 'Role');
    expect(role?.metadata).toMatchObject({ name: 'edge-binnacle-agent-self-upgrade', namespace: 'default' });
    expect(role?.rules).toEqual([
      {
        apiGroups: ['apps'],
        resources: ['deployments'],
        resourceNames: ['edge-binnacle-agent'],
        verbs: ['get', 'patch'],
      },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
    ]);
    const binding = objects.find((o) => o.kind === 'RoleBinding');
    expect(binding?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'edge-binnacle-agent', namespace: 'default' },
    ]);
    expect(binding?.roleRef).toMatchObject({ kind: 'Role', name: 'edge-binnacle-agent-self-upgrade' });
    // Off by default: no variables, no Role, and the cluster-wide rules grant no patch either.
    const plain = await template([]);
    if (typeof plain === 'string') throw new Error(plain);
    expect((await agentEnv([])).filter((e) => e.name.startsWith('MY_'))).toEqual([]);
    expect(plain.filter((o) => o.kind === 'Role' || o.kind === 'RoleBinding')).toEqual([]);
    expect(await template(['rbac.selfUpgrade=yes'])).toMatch(/selfUpgrade/);
  });

  it('binds binnacle:role:owner|member|viewer to admin|edit|view in cloud mode, unless defaultRbac.create=false', async () => {
    const objects = await template(cloud);
    if (typeof objects === 'string') throw new Error(objects);
    expect(roleBindings(objects)).toEqual([
      'binnacle:role:member → edit',
      'binnacle:role:owner → admin',
      'binnacle:role:viewer → view',
    ]);
    // As the hub's connect page binds them for an agent outside the chart.
    expect(roleBindings(objects)).toEqual(
      Object.entries(hubRoleClusterRoles)
        .map(([role, clusterRole]) => `binnacle:role:${role} → ${clusterRole}`)
        .sort(),
    );
    const idpMode = await template([...cloud, 'cloud.defaultRbac.create=false']);
    if (typeof idpMode === 'string') throw new Error(idpMode);
    expect(roleBindings(idpMode)).toEqual([]);
  });

  it("keeps the agent's port off the cluster network by default: no Service, a NetworkPolicy admitting nothing", async () => {
    for (const sets of [[], cloud]) {
      const objects = await template(sets);
      if (typeof objects === 'string') throw new Error(objects);
      expect(objects.filter((o) => o.kind === 'Service')).toEqual([]);
      const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
      expect(policies).toHaveLength(1);
      expect(policies[0]?.spec).toMatchObject({ policyTypes: ['Ingress'] });
      expect(policies[0]?.spec?.ingress).toBeUndefined();
    }
  });

  it('exposes a standalone agent only when asked (service.create, networkPolicy.allowFrom), and never in cloud mode', async () => {
    const from = { namespaceSelector: { matchLabels: { team: 'ops' } } };
    const exposed = await template([
      'service.create=true',
      `networkPolicy.allowFrom[0].namespaceSelector.matchLabels.team=ops`,
    ]);
    if (typeof exposed === 'string') throw new Error(exposed);
    expect(exposed.filter((o) => o.kind === 'Service')).toHaveLength(1);
    expect(exposed.find((o) => o.kind === 'NetworkPolicy')?.spec?.ingress).toEqual([
      { from: [from], ports: [{ port: 'http', protocol: 'TCP' }] },
    ]);
    expect(await template([...cloud, 'service.create=true'])).toMatch(/service\/create/);
    expect(await template(['networkPolicy.create=no'])).toMatch(/networkPolicy/);
  });

  it('refuses a hub URL without a token, and a malformed token', async () => {
    expect(await template(['cloud.url=https://hub.example.com'])).toMatch(/existingSecret|clusterToken/);
    expect(await template(['cloud.url=https://hub.example.com', 'cloud.clusterToken=not-a-token'])).toMatch(
      /clusterToken/,
    );
  });

  it('installs into the local control plane: bindings and the NetworkPolicy created, no Service, the agent Deployment rolled out', async () => {
    const cluster = testCluster();
    const namespace = await cluster.namespace('agent-chart');
    const release = `agent-${namespace.name.slice(-6)}`;
    const kubeconfig = cluster.kubeconfigPath('admin');
    // The default bindings give every hub role cluster-wide rights while installed.
    const unlock = await cluster.lock(hubRoleBindingsLock);
    try {
      await run(await helmBinary(), [
        'install',
        release,
        chart,
        '--namespace',
        namespace.name,
        '--kubeconfig',
        kubeconfig,
        ...cloud.flatMap((s) => ['--set', s]),
      ]);
      const rbac = cluster.kubeConfig('admin').makeApiClient(RbacAuthorizationV1Api);
      const owner = await rbac.readClusterRoleBinding({ name: `${release}-binnacle-agent-owner` });
      expect(owner.subjects?.[0]).toMatchObject({ kind: 'Group', name: 'binnacle:role:owner' });
      const policy = await cluster
        .kubeConfig('admin')
        .makeApiClient(NetworkingV1Api)
        .readNamespacedNetworkPolicy({ name: `${release}-binnacle-agent`, namespace: namespace.name });
      expect(policy.spec).toMatchObject({ policyTypes: ['Ingress'] });
      const services = await cluster
        .kubeConfig('admin')
        .makeApiClient(CoreV1Api)
        .listNamespacedService({ namespace: namespace.name });
      expect(services.items).toEqual([]);
      const apps = cluster.kubeConfig('admin').makeApiClient(AppsV1Api);
      await waitUntil(
        'the agent Deployment to have a ready replica',
        async () =>
          ((
            await apps.readNamespacedDeployment({
              name: `${release}-binnacle-agent`,
              namespace: namespace.name,
            })
          ).status?.readyReplicas ?? 0) >= 1,
        { timeoutMs: 60_000, intervalMs: 500 },
      );
    } finally {
      await run(await helmBinary(), [
        'uninstall',
        release,
        '--namespace',
        namespace.name,
        '--kubeconfig',
        kubeconfig,
      ]).catch(() => undefined);
      await unlock();
      await namespace.remove();
    }
  });
});
