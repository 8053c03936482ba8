import { testCluster } from '@binnacle/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { KubeClient } from './client.ts';
import { resolveTarget } from './kubeconfig.ts';
import { onlyReading } from './read-only.ts';

const client = new KubeClient(await resolveTarget({ kubeconfig: testCluster().kubeconfigPath('admin') }));
afterAll(() => client.close());

interface Review {
  status: { userInfo: { username: string; groups: string[] } };
}

const whoAmI = (as?: { user: string; groups: string[] }) =>
  client.request<Review>({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    as,
  });

describe('the Kubernetes client', () => {
  it('impersonates a user with every group as a group of its own (one Impersonate-Group line each)', async () => {
    const groups = ['binnacle:role:owner', 'binnacle:idp:/platform-admins', 'binnacle:idp:équipe'];
    const review = await whoAmI({ user: 'binnacle:user:ada@example.com', groups });
    expect(review.status.userInfo).toEqual({
      username: 'binnacle:user:ada@example.com',
      groups: [...groups, 'system:authenticated'],
    });
  });

  it('acts as itself without an impersonation', async () => {
    const review = await whoAmI();
    expect(review.status.userInfo.groups).toContain('system:masters');
  });

  it('refuses to impersonate a blank or padded name, which the API server would trim into another identity', async () => {
    for (const as of [
      { user: ' ', groups: [] },
      { user: ' system:admin', groups: [] },
      { user: 'ada@example.com', groups: ['system:masters\t'] },
    ]) {
      await expect(whoAmI(as)).rejects.toMatchObject({ code: 'forbidden' });
      await expect(client.upgradeHeaders(as)).rejects.toMatchObject({ code: 'forbidden' });
    }
  });
});

describe('the Kubernetes client while only reading (the read-only MCP endpoint)', () => {
  const configMap = {
    method: 'POST' as const,
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'written-while-reading' } },
  };

  it('sends reads, reviews and apply dry runs, and refuses every write and session before it reaches the API server', async () => {
    await onlyReading(async () => {
      expect(
        (await client.request<{ items: unknown[] }>({ path: '/api/v1/namespaces' })).items.length,
      ).toBeGreaterThan(0);
      expect((await whoAmI()).status.userInfo.groups).toContain('system:masters');
      const review = await client.request<{ status: { allowed: boolean } }>({
        method: 'POST',
        path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { verb: 'create', resource: 'configmaps', namespace: 'default' } },
        },
      });
      expect(review.status.allowed).toBe(true);
      await expect(client.request(configMap)).rejects.toMatchObject({ code: 'forbidden' });
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const)
        await expect(
          client.request({
            method,
            path: '/api/v1/namespaces/default/configmaps/kube-root-ca.crt',
            body: {},
          }),
        ).rejects.toMatchObject({ code: 'forbidden' });
      await expect(client.upgradeHeaders()).rejects.toMatchObject({ code: 'forbidden' });
      // A server-side apply's dry run is sent (it writes nothing); the same apply for real, or another patch
      // type's dry run, is not.
      const apply = {
        method: 'PATCH' as const,
        path: `${configMap.path}/written-while-reading`,
        query: { fieldManager: 'binnacle', dryRun: 'All' },
        contentType: 'application/apply-patch+yaml',
        body: configMap.body,
      };
      expect((await client.request<{ metadata: { name: string } }>(apply)).metadata.name).toBe(
        'written-while-reading',
      );
      await expect(client.request({ ...apply, query: { fieldManager: 'binnacle' } })).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(
        client.request({ ...apply, contentType: 'application/merge-patch+json' }),
      ).rejects.toMatchObject({ code: 'forbidden' });
    });
    // Nothing was created, and outside that work the same client writes again.
    await expect(
      client.request({ path: '/api/v1/namespaces/default/configmaps/written-while-reading' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await client.request(configMap);
    await client.request({ method: 'DELETE', path: `${configMap.path}/written-while-reading` });
  });
});
