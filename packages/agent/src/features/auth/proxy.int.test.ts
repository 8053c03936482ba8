import { testCluster } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInNamespace, sendFrom, startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * `--auth-mode proxy` against the real control plane: the agent believes identity headers only from its
 * trusted proxy address (127.0.0.2 here; the test connects from there as a proxy would) and impersonates that
 * person, so the API server's RBAC decides what they see.
 */
const proxyAddress = '127.0.0.2';

let agent: TestAgent;
let allowed: { name: string; remove: () => Promise<void> };
let other: { name: string; remove: () => Promise<void> };
let unbind: () => Promise<void>;
const user = 'proxy-alice@example.com';

beforeAll(async () => {
  [agent, allowed, other] = await Promise.all([
    startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: `${proxyAddress}, 10.9.0.0/16` } }),
    testCluster().namespace('proxy-allowed'),
    testCluster().namespace('proxy-other'),
  ]);
  unbind = await bindInNamespace(allowed.name, { kind: 'Group', name: 'team-a' });
});

afterAll(async () => {
  await unbind?.();
  await Promise.all([agent?.close(), allowed?.remove(), other?.remove()]);
});

const asProxy = (path: string, headers: Record<string, string>, method?: string) =>
  sendFrom(agent, path, headers, proxyAddress, method);

describe('--auth-mode proxy', () => {
  it('acts as the user and groups of the trusted headers: lists pods where a RoleBinding names the group, 403 elsewhere', async () => {
    const headers = { 'x-forwarded-user': user, 'x-forwarded-groups': 'team-a, team-b' };
    const inside = await asProxy(`/api/resources/pods?namespace=${allowed.name}`, headers);
    expect(inside.status, JSON.stringify(inside.body)).toBe(200);
    const outside = await asProxy(`/api/resources/pods?namespace=${other.name}`, headers);
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ code: 'forbidden' });
    expect(String(outside.body.error)).toContain(user);
    const withoutGroup = await asProxy(`/api/resources/pods?namespace=${allowed.name}`, {
      'x-forwarded-user': user,
    });
    expect(withoutGroup.status).toBe(403);
  });

  it('/api/auth/me names the signed-in user and groups', async () => {
    const me = await asProxy('/api/auth/me', {
      'x-forwarded-user': user,
      'x-forwarded-groups': 'team-a,team-b',
    });
    expect(me).toEqual({
      status: 200,
      body: { authEnabled: true, authMode: 'proxy', username: user, groups: ['team-a', 'team-b'] },
    });
  });

  it('refuses the same headers from an address that is not a trusted proxy (401 proxy_not_trusted)', async () => {
    const res = await agent.request(`/api/resources/pods?namespace=${allowed.name}`, {
      headers: { 'x-forwarded-user': user, 'x-forwarded-groups': 'team-a' },
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('proxy_not_trusted');
    expect(body.error).toContain('127.0.0.1');
  });

  it('answers 401 without a user header, and keeps /api/health open', async () => {
    const bare = await asProxy('/api/resources/pods', {});
    expect(bare.status).toBe(401);
    expect(bare.body).toMatchObject({ code: 'unauthenticated' });
    expect(String(bare.body.error)).toMatch(/x-forwarded-user/i);
    expect((await agent.request('/api/health')).status).toBe(200);
    expect(await agent.json('/api/auth/me')).toEqual({ authEnabled: true, authMode: 'proxy' });
  });

  it('takes a blank user header for none: 401, and nothing runs as the agent itself', async () => {
    const core = testCluster().kubeConfig('admin').makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: other.name, body: { metadata: { name: 'keep' } } });
    // A no-break space is header-legal and trims away; an empty Impersonate-User impersonates nobody, so the
    // API server would delete as the agent.
    const blank = await asProxy(
      `/api/resources/configmaps/${other.name}/keep`,
      { 'x-forwarded-user': '\u00a0' },
      'DELETE',
    );
    expect(blank.status).toBe(401);
    expect(blank.body).toMatchObject({ code: 'unauthenticated' });
    expect((await core.readNamespacedConfigMap({ namespace: other.name, name: 'keep' })).metadata?.name).toBe(
      'keep',
    );
  });

  it('refuses system: users and groups with 403', async () => {
    const asSystemUser = await asProxy('/api/resources/pods', { 'x-forwarded-user': 'system:admin' });
    expect(asSystemUser.status).toBe(403);
    const asSystemGroup = await asProxy('/api/resources/pods', {
      'x-forwarded-user': user,
      'x-forwarded-groups': 'team-a,system:masters',
    });
    expect(asSystemGroup.status).toBe(403);
    expect(asSystemGroup.body).toMatchObject({ code: 'forbidden' });
  });

  it("refuses routes that act with the agent's own identity to signed-in people", async () => {
    const res = await asProxy('/api/config', { 'x-forwarded-user': user, 'x-forwarded-groups': 'team-a' });
    expect(res.status).toBe(403);
  });
});
