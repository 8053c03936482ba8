import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

let agent: TestAgent;
// Credentials an embedding may put in the configuration: /api/config says they are set, never what they are.
const credentials = {
  oidcClientSecret: 'oidc-client-secret-value',
  metricsdbHeaders: 'Authorization=Bearer metrics-store-secret',
};
beforeAll(async () => {
  agent = await startTestAgent({ config: { port: 0, debugEvents: false, ...credentials } });
});
afterAll(async () => {
  await agent?.close();
});

const put = (path: string, body: unknown) =>
  agent.request(path, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('GET/PUT /api/config', () => {
  it('shows an empty file and the effective configuration', async () => {
    const view = await agent.json<{
      file: object;
      effective: { port: number; listenAddress: string };
      path: string;
    }>('/api/config');
    expect(view.file).toEqual({});
    expect(view.effective.listenAddress).toBe('127.0.0.1');
    expect(view.path).toBe(join(agent.dataDir, 'config.json'));
    expect(view.effective).toMatchObject({
      clusterTokenSet: false,
      oidcClientSecretSet: true,
      metricsdbHeadersSet: true,
    });
    const text = JSON.stringify(view);
    for (const secret of ['oidc-client-secret-value', 'metrics-store-secret'])
      expect(text).not.toContain(secret);
  });

  it('replaces the file atomically with mode 0600, effective at the next start', async () => {
    const res = await put('/api/config', { port: 9391, namespace: 'demo-shop', noBrowser: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      file: { port: 9391, namespace: 'demo-shop', noBrowser: true },
      restartRequired: true,
    });
    const path = join(agent.dataDir, 'config.json');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      port: 9391,
      namespace: 'demo-shop',
      noBrowser: true,
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await agent.json<{ effective: { port: number } }>('/api/config')).effective.port).toBe(0);
  });

  it('answers 400 naming an unknown or invalid field, and keeps the file as it was', async () => {
    const before = await agent.json<{ file: object }>('/api/config');
    const cases: [unknown, string][] = [
      [{ port: 9391, colour: 'red' }, 'unknown body field "colour"'],
      [{ port: 70000 }, 'body field "port" must be <= 65535'],
      [{ port: 'x' }, 'body field "port" must be integer'],
      [{ releaseFeedUrl: 'ftp://x' }, 'body field "releaseFeedUrl" must match pattern "^https?://"'],
    ];
    for (const [body, error] of cases) {
      const res = await put('/api/config', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error, code: 'invalid_request' });
    }
    expect((await agent.json<{ file: object }>('/api/config')).file).toEqual(before.file);
  });
});

describe('GET/PUT /api/settings and /api/settings/audit', () => {
  it('merges settings: fields left out keep their value', async () => {
    expect(await agent.json('/api/settings')).toEqual({});
    await put('/api/settings', { theme: 'dark' });
    const merged = await put('/api/settings', { pinnedKinds: [{ kind: 'Deployment', group: 'apps' }] });
    expect(await merged.json()).toEqual({
      theme: 'dark',
      pinnedKinds: [{ kind: 'Deployment', group: 'apps' }],
    });
    expect(JSON.parse(await readFile(join(agent.dataDir, 'settings.json'), 'utf8'))).toEqual({
      theme: 'dark',
      pinnedKinds: [{ kind: 'Deployment', group: 'apps' }],
    });
  });

  it('rejects an unknown theme and an unknown nested field', async () => {
    const theme = await put('/api/settings', { theme: 'neon' });
    expect(await theme.json()).toEqual({
      error: 'body field "theme" must be one of: light, dark, system',
      code: 'invalid_request',
    });
    const nested = await put('/api/settings', { pinnedKinds: [{ kind: 'Pod', group: '', colour: 'red' }] });
    expect(await nested.json()).toEqual({
      error: 'unknown body field "pinnedKinds.0.colour"',
      code: 'invalid_request',
    });
  });

  it('keeps concurrent updates of different fields', async () => {
    await Promise.all([put('/api/settings', { theme: 'light' }), put('/api/settings', { pinnedKinds: [] })]);
    expect(await agent.json('/api/settings')).toMatchObject({ theme: 'light', pinnedKinds: [] });
  });

  it('replaces audit settings without touching the rest', async () => {
    expect(await agent.json('/api/settings/audit')).toEqual({ ignoredNamespaces: [], disabledChecks: [] });
    const res = await put('/api/settings/audit', {
      ignoredNamespaces: ['kube-system'],
      disabledChecks: ['runAsRoot'],
    });
    expect(await res.json()).toEqual({ ignoredNamespaces: ['kube-system'], disabledChecks: ['runAsRoot'] });
    expect(await agent.json('/api/settings')).toMatchObject({
      theme: 'light',
      audit: { ignoredNamespaces: ['kube-system'] },
    });
    const missing = await put('/api/settings/audit', { ignoredNamespaces: [] });
    expect(await missing.json()).toEqual({
      error: 'missing body field "disabledChecks"',
      code: 'invalid_request',
    });
  });

  it('takes JSON as typed and refuses namespace names Kubernetes would refuse, naming the entry', async () => {
    const before = await agent.json('/api/settings');
    const cases: [string, unknown, string][] = [
      [
        '/api/settings',
        { audit: { ignoredNamespaces: [false], disabledChecks: [] } },
        'body field "audit.ignoredNamespaces.0" must be string',
      ],
      [
        '/api/settings/audit',
        { ignoredNamespaces: [false], disabledChecks: [] },
        'body field "ignoredNamespaces.0" must be string',
      ],
      [
        '/api/settings/audit',
        { ignoredNamespaces: 'kube-system', disabledChecks: [] },
        'body field "ignoredNamespaces" must be array',
      ],
      [
        '/api/settings/audit',
        { ignoredNamespaces: ['kube-system', 'Kube_System'], disabledChecks: [] },
        'body field "ignoredNamespaces.1": "Kube_System" is not a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)',
      ],
      [
        '/api/settings/audit',
        { ignoredNamespaces: ['x'.repeat(64)], disabledChecks: [] },
        'body field "ignoredNamespaces.0" must NOT have more than 63 characters',
      ],
    ];
    for (const [path, body, error] of cases) {
      const res = await put(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toEqual({ error, code: 'invalid_request' });
    }
    expect(await agent.json('/api/settings')).toEqual(before);
  });
});
