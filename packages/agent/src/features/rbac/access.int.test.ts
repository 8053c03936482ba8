import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { clusterBinaries, identities, testCluster } from '@binnacle/testkit';
import { AuthorizationV1Api, RbacAuthorizationV1Api, type RbacV1Subject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, startTestAgent, type TestAgent } from '../../testing/index.ts';
import { json, mcpClients } from '../../testing/mcp-client.ts';
import type { ResourceRule, Subject } from './access.ts';

const run = promisify(execFile);
const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
const authorization = admin.makeApiClient(AuthorizationV1Api);
const { kubectl: kubectlPath } = await clusterBinaries();
let agent: TestAgent;
const connect = mcpClients();
let ns: { name: string; remove: () => Promise<void> };

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('access')]);
  await rbac.createNamespacedRole({
    namespace: ns.name,
    body: {
      metadata: { name: 'pod-deleter' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'delete'] }],
    },
  });
  await rbac.createNamespacedRole({
    namespace: ns.name,
    body: {
      metadata: { name: 'pod-reader' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    },
  });
  const bind = (name: string, role: string, subjects: RbacV1Subject[]) =>
    rbac.createNamespacedRoleBinding({
      namespace: ns.name,
      body: {
        metadata: { name },
        subjects,
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
      },
    });
  await bind('deleters', 'pod-deleter', [
    { kind: 'User', name: 'dora', apiGroup: 'rbac.authorization.k8s.io' },
    { kind: 'ServiceAccount', name: 'janitor', namespace: ns.name },
    { kind: 'Group', name: 'cleaners', apiGroup: 'rbac.authorization.k8s.io' },
  ]);
  await bind('readers', 'pod-reader', [
    { kind: 'User', name: 'rita', apiGroup: 'rbac.authorization.k8s.io' },
  ]);
  // The restricted identity gets a little in this namespace too, so its list differs between namespaces.
  await bind('restricted-reads', 'pod-reader', [
    { kind: 'User', name: identities.restricted.user, apiGroup: 'rbac.authorization.k8s.io' },
  ]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove()]);
});

/** One line per (resource, name, verb) a rule grants, `pods.apps/web:get`, as both kubectl and the review say. */
function triples(rules: { resource: string; names: string[]; verbs: string[] }[]): string[] {
  const out = new Set<string>();
  for (const rule of rules)
    for (const verb of rule.verbs)
      for (const name of rule.names.length > 0 ? rule.names : [''])
        out.add(`${rule.resource}/${name}:${verb}`);
  return [...out].sort();
}

/** `kubectl auth can-i --list`'s table: resources, non-resource URLs, resource names, verbs (bracketed lists). */
function kubectlRules(table: string) {
  const list = (cell: string) => cell.slice(1, -1).split(' ').filter(Boolean);
  const rows = table
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '');
  return rows.flatMap((line) => {
    const match = /^(\S*)\s+(\[[^\]]*\])\s+(\[[^\]]*\])\s+(\[[^\]]*\])\s*$/.exec(line);
    if (!match) throw new Error(`kubectl printed a line this test cannot read: ${line}`);
    const [, resource = '', urls = '[]', names = '[]', verbs = '[]'] = match;
    return resource
      ? [{ resource, names: list(names), verbs: list(verbs) }]
      : list(urls).map((url) => ({ resource: url, names: [], verbs: list(verbs) }));
  });
}

/** The same from the agent's answer: each group's resources as kubectl names them (`deployments.apps`, `*.*`). */
function reviewedRules(answer: {
  resourceRules: ResourceRule[];
  nonResourceRules: { verbs: string[]; nonResourceURLs: string[] }[];
}) {
  return [
    ...answer.resourceRules.flatMap((rule) =>
      rule.apiGroups.flatMap((group) =>
        rule.resources.map((resource) => ({
          resource: group ? `${resource}.${group}` : resource,
          names: rule.resourceNames ?? [],
          verbs: rule.verbs,
        })),
      ),
    ),
    ...answer.nonResourceRules.flatMap((rule) =>
      rule.nonResourceURLs.map((url) => ({ resource: url, names: [], verbs: rule.verbs })),
    ),
  ];
}

describe('access views', () => {
  it('lists what the restricted identity may do in each namespace exactly as kubectl auth can-i --list --as does', async () => {
    const user = identities.restricted.user;
    for (const namespace of [ns.name, 'demo-shop', 'default']) {
      const answer = await agent.json<Parameters<typeof reviewedRules>[0]>(
        `/api/access/subject?kind=User&name=${user}&namespace=${namespace}`,
      );
      const { stdout } = await run(kubectlPath, [
        '--kubeconfig',
        cluster.kubeconfigPath('admin'),
        'auth',
        'can-i',
        '--list',
        `--as=${user}`,
        '-n',
        namespace,
      ]);
      expect(triples(reviewedRules(answer)), namespace).toEqual(triples(kubectlRules(stdout)));
    }
    const here = await agent.json<{ grants: { binding: string }[] }>(
      `/api/access/subject?kind=User&name=${user}&namespace=${ns.name}`,
    );
    expect(here.grants.map((g) => g.binding)).toContain(`RoleBinding ${ns.name}/restricted-reads`);
  });

  it('answers who may delete pods: the subjects the bindings grant it, each confirmed by a SubjectAccessReview', async () => {
    for (const namespace of [ns.name, 'demo-shop']) {
      const answer = await agent.json<{
        subjects: { subject: Subject; allowed: boolean; grants: unknown[] }[];
      }>(`/api/access/who?verb=delete&kind=pods&namespace=${namespace}`);
      expect(answer.subjects.length, namespace).toBeGreaterThan(0);
      // The API server, asked apart, agrees with every subject listed.
      for (const { subject, allowed } of answer.subjects) {
        const review = await authorization.createSubjectAccessReview({
          body: {
            spec: {
              ...(subject.kind === 'Group'
                ? { user: 'binnacle:access-probe', groups: [subject.name, 'system:authenticated'] }
                : subject.kind === 'ServiceAccount'
                  ? {
                      user: `system:serviceaccount:${subject.namespace}:${subject.name}`,
                      groups: ['system:serviceaccounts', `system:serviceaccounts:${subject.namespace}`],
                    }
                  : { user: subject.name, groups: ['system:authenticated'] }),
              resourceAttributes: { verb: 'delete', resource: 'pods', namespace },
            },
          },
        });
        expect({ subject, allowed }).toEqual({ subject, allowed: review.status?.allowed === true });
      }
      if (namespace !== ns.name) continue;
      const names = answer.subjects.map(
        ({ subject }) => `${subject.kind} ${subject.namespace ?? ''}/${subject.name}`,
      );
      expect(names).toEqual(
        expect.arrayContaining(['User /dora', `ServiceAccount ${ns.name}/janitor`, 'Group /cleaners']),
      );
      expect(names).not.toContain('User /rita');
      expect(answer.subjects.filter((s) => s.subject.name === 'dora').every((s) => s.allowed)).toBe(true);
      // Assistants ask the same through MCP and get the same subjects.
      const told = await json<typeof answer.subjects>(await connect(agent), 'who_can', {
        verb: 'delete',
        kind: 'pods',
        namespace,
      });
      expect(told).toEqual(answer.subjects);
    }
  });

  it('names who is cluster-admin in effect: every verb on every resource, cluster-wide', async () => {
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: `${ns.name}-root` },
        subjects: [{ kind: 'User', name: 'rooty', apiGroup: 'rbac.authorization.k8s.io' }],
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      },
    });
    try {
      const admins = async () => {
        const answer = await agent.json<{ subjects: { subject: Subject; allowed: boolean }[] }>(
          '/api/access/who?verb=*&kind=*',
        );
        return answer.subjects.map(({ subject, allowed }) => `${subject.kind} ${subject.name} ${allowed}`);
      };
      // The answer is read from the agent's watch of bindings, which sees the new one a moment after it is made.
      await expect
        .poll(admins, { timeout: 10_000 })
        .toEqual(expect.arrayContaining(['Group system:masters true', 'User rooty true']));
      // A namespace's deleters are no admins.
      expect((await admins()).some((a) => a.startsWith('User dora'))).toBe(false);
    } finally {
      await rbac.deleteClusterRoleBinding({ name: `${ns.name}-root` });
    }
  });

  it('refuses a caller who may not review access (view role) with 403, and a bad question with 400', async () => {
    const unbind = await bindInNamespace(ns.name, { kind: 'User', name: 'access-viewer' }, 'view');
    const proxied = await startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: '127.0.0.1' } });
    try {
      const as = { headers: { 'x-forwarded-user': 'access-viewer' } };
      const refused = await proxied.request(`/api/access/who?verb=delete&kind=pods&namespace=${ns.name}`, as);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe('forbidden');
      const subject = await proxied.request(
        `/api/access/subject?kind=User&name=dora&namespace=${ns.name}`,
        as,
      );
      expect(subject.status).toBe(403);
      await subject.body?.cancel();
    } finally {
      await proxied.close();
      await unbind();
    }
    for (const path of [
      `/api/access/who?verb=delete&kind=gizmos&namespace=${ns.name}`,
      `/api/access/who?verb=DELETE&kind=pods`,
      `/api/access/subject?kind=Robot&name=x&namespace=${ns.name}`,
    ]) {
      const answer = await agent.request(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
      await answer.body?.cancel();
    }
  });
});
