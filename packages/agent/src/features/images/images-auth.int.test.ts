import {
  layer,
  pushImage,
  registryLogin,
  startRegistry,
  type TestRegistry,
  testCluster,
} from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPullingPod, createPullSecret, repositoryName } from '../../testing/images.ts';
import { bindInNamespace, sendFrom, startTestAgent, type TestAgent } from '../../testing/index.ts';

/**
 * Pulls from a registry that wants basic auth: credentials from a pod's imagePullSecrets or from secrets named
 * outright (dockerconfigjson and the legacy dockercfg), read as the caller; wrong or missing ones are a 401
 * naming the registry.
 */
let registry: TestRegistry;
/** Signs people in through a trusted proxy (acts as them); `plain` acts as itself (the admin). */
let agent: TestAgent;
let plain: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let image: string;

beforeAll(async () => {
  [registry, ns] = await Promise.all([startRegistry(), testCluster().namespace('images-auth')]);
  const repository = repositoryName('private');
  image = `${registry.host}/${repository}:1`;
  await pushImage(registry, repository, '1', [
    layer([{ path: 'private.txt', content: 'only with a login' }]),
  ]);
  const login = { username: registryLogin.username, password: registryLogin.password };
  await Promise.all([
    createPullSecret(ns.name, 'regcred', registry.host, login),
    createPullSecret(ns.name, 'legacy', registry.host, login, true),
    createPullSecret(ns.name, 'wrong', registry.host, { ...login, password: 'not-the-password' }),
    createPullSecret(ns.name, 'elsewhere', 'registry.example:5000', login),
  ]);
  await Promise.all([
    createPullingPod(ns.name, 'puller', image, ['missing', 'elsewhere', 'regcred']),
    createPullingPod(ns.name, 'wrong-puller', image, ['wrong']),
  ]);
  [agent, plain] = await Promise.all([
    startTestAgent({ config: { authMode: 'proxy', authProxyAddresses: '127.0.0.2' } }),
    startTestAgent(),
  ]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), plain?.close(), registry?.stop(), ns?.remove()]);
});

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
/** A request from the trusted proxy (127.0.0.2) for a user in `group`: the agent acts as that user. */
const asUser = (path: string, group: string) =>
  sendFrom(
    agent,
    path,
    { 'x-forwarded-user': 'image-reader@example.com', 'x-forwarded-groups': group },
    '127.0.0.2',
  );
/** A request to the agent that acts as itself, with its status and JSON body. */
async function asAgent(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await plain.request(path);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('basic auth from pull secrets', () => {
  it("pulls with the pod's imagePullSecrets, skipping missing and unrelated ones", async () => {
    const group = 'image-editors';
    const unbind = await bindInNamespace(ns.name, { kind: 'Group', name: group }, 'edit');
    try {
      const meta = await asUser(
        `/api/images/metadata?${q({ image, namespace: ns.name, pod: 'puller' })}`,
        group,
      );
      expect(meta.status).toBe(200);
      expect(meta.body).toMatchObject({
        authMethod: 'basic',
        credentialSource: `${ns.name}/regcred`,
        layerCount: 1,
      });
      expect(JSON.stringify(meta.body)).not.toContain(registryLogin.password);
      const tree = await asUser(
        `/api/images/inspect?${q({ image, namespace: ns.name, pod: 'puller' })}`,
        group,
      );
      expect(tree.status).toBe(200);
      expect(JSON.stringify(tree.body)).toContain('/private.txt');
    } finally {
      await unbind();
    }
  });

  it('pulls with secrets named outright, dockercfg as well as dockerconfigjson', async () => {
    for (const secret of ['legacy', 'elsewhere,regcred']) {
      const meta = await asAgent(
        `/api/images/metadata?${q({ image, namespace: ns.name, pullSecrets: secret })}`,
      );
      expect(meta.status).toBe(200);
      expect(meta.body.authMethod).toBe('basic');
    }
  });

  it('answers 401 naming the registry without credentials and with wrong ones', async () => {
    const none = await asAgent(`/api/images/inspect?${q({ image })}`);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 'registry_unauthorized', registry: registry.host });
    expect(none.body.error).toContain(`the registry ${registry.host} requires credentials`);
    const wrong = await asAgent(
      `/api/images/metadata?${q({ image, namespace: ns.name, pod: 'wrong-puller' })}`,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe(
      `the registry ${registry.host} refused the credentials of pull secret ${ns.name}/wrong`,
    );
    expect(JSON.stringify(wrong.body)).not.toContain('not-the-password');
  });

  it('reads pod and secrets as the caller: 403 for one who may not read the secret', async () => {
    const group = 'image-viewers';
    // view reads pods but no Secrets.
    const unbind = await bindInNamespace(ns.name, { kind: 'Group', name: group }, 'view');
    try {
      const res = await asUser(
        `/api/images/metadata?${q({ image, namespace: ns.name, pod: 'puller' })}`,
        group,
      );
      expect(res.status).toBe(403);
      expect(res.body.error).toContain('secrets');
      const none = await asUser(
        `/api/images/file?${q({ image, namespace: ns.name, pullSecrets: 'regcred', path: '/private.txt' })}`,
        'nobody',
      );
      expect(none.status).toBe(403);
    } finally {
      await unbind();
    }
  });

  it('streams a file of the private image', async () => {
    const res = await plain.request(
      `/api/images/file?${q({ image, namespace: ns.name, pullSecrets: 'regcred', path: '/private.txt' })}`,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('only with a login');
  });
});
