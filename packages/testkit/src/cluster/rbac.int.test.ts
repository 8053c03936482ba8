import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { ApiException, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubRoleBindingsLock, testCluster } from '../test-cluster.ts';
import { waitUntil } from './wait.ts';

const cluster = testCluster();
const admin = cluster.kubeConfig('admin');
const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
const idpGroup = 'binnacle:idp:/platform-admins';
const user = 'binnacle:user:alice@example.com';

let namespace: { name: string; remove: () => Promise<void> };

/**
 * A request as the admin identity that impersonates `user` with each group on its own
 * `Impersonate-Group` header line (Node sends an array value as repeated lines; fetch would join them).
 */
function impersonated(
  method: string,
  path: string,
  groups: string[],
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const { pki } = cluster.state;
  return new Promise((resolveRequest, reject) => {
    const req = request(
      `${cluster.server}${path}`,
      {
        method,
        ca: readFileSync(pki.ca.cert),
        cert: readFileSync(pki.admin.cert),
        key: readFileSync(pki.admin.key),
        headers: {
          'Impersonate-User': user,
          'Impersonate-Group': groups,
          'Content-Type': 'application/json',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolveRequest({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const listSecrets = (groups: string[]) =>
  impersonated('GET', `/api/v1/namespaces/${namespace.name}/secrets`, groups);

// binnacle:role:member must not be bound cluster-wide meanwhile (the agent chart's default bindings do).
let unlock: (() => Promise<void>) | undefined;

beforeAll(async () => {
  unlock = await cluster.lock(hubRoleBindingsLock);
  namespace = await cluster.namespace('rbac');
  await rbac.createNamespacedRole({
    namespace: namespace.name,
    body: {
      metadata: { name: 'secret-reader' },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }],
    },
  });
});

afterAll(async () => {
  await namespace?.remove();
  await unlock?.();
});

describe('RBAC on the local control plane is real', () => {
  it('answers 403 to the restricted identity listing Secrets', async () => {
    const core = cluster.kubeConfig('restricted').makeApiClient(CoreV1Api);
    const error = await core.listNamespacedSecret({ namespace: namespace.name }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiException);
    expect((error as ApiException<unknown>).code).toBe(403);
  });

  it('sees each Impersonate-Group header line as its own group', async () => {
    const review = await impersonated(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      ['binnacle:role:member', idpGroup],
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    );
    expect(review.status).toBe(201);
    const info = (review.json.status as { userInfo: { username: string; groups: string[] } }).userInfo;
    expect(info.username).toBe(user);
    expect(info.groups).toEqual(['binnacle:role:member', idpGroup, 'system:authenticated']);
  });

  it('allows an impersonated group exactly while a RoleBinding names it', async () => {
    const groups = ['binnacle:role:member', idpGroup];
    expect((await listSecrets(groups)).status).toBe(403);

    await rbac.createNamespacedRoleBinding({
      namespace: namespace.name,
      body: {
        metadata: { name: 'platform-admins-read-secrets' },
        subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: idpGroup }],
        roleRef: { kind: 'Role', apiGroup: 'rbac.authorization.k8s.io', name: 'secret-reader' },
      },
    });
    // The authorizer reads bindings from its watch cache, so the change lands within moments, not at once.
    await waitUntil('the binding to take effect', async () => (await listSecrets(groups)).status === 200, {
      timeoutMs: 10_000,
    });
    // The same user without the group is still refused: the group, not the user, is what the binding names.
    expect((await listSecrets(['binnacle:role:member'])).status).toBe(403);
    // Both groups joined into one header value are one (unbound) group, not two.
    expect((await listSecrets([groups.join(', ')])).status).toBe(403);

    await rbac.deleteNamespacedRoleBinding({
      namespace: namespace.name,
      name: 'platform-admins-read-secrets',
    });
    await waitUntil(
      'the binding removal to take effect',
      async () => (await listSecrets(groups)).status === 403,
      {
        timeoutMs: 10_000,
      },
    );
  });
});
