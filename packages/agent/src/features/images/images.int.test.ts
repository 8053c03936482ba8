import { freePort, testCluster } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymousRegistry,
  fileCap,
  pushLayeredImage,
  pushMultiArchImage,
  repositoryName,
} from '../../testing/images.ts';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

/** The image routes against the control plane's anonymous registry: metadata, the merged tree, files, bad input. */
const registry = anonymousRegistry();
const app = `${registry.host}/${repositoryName('layered')}:1`;
const multi = `${registry.host}/${repositoryName('multi')}:1`;
let agent: TestAgent;
let manifestDigest: string;

beforeAll(async () => {
  const [pushed] = await Promise.all([
    pushLayeredImage(registry, app.slice(registry.host.length + 1, -2)),
    pushMultiArchImage(registry, multi.slice(registry.host.length + 1, -2)),
  ]);
  manifestDigest = pushed.digest;
  agent = await startTestAgent({ config: { imageFileMaxBytes: fileCap } });
});
afterAll(() => agent?.close());

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

interface Node {
  name: string;
  path: string;
  type: string;
  size: number;
  mode: number;
  layer: number;
  linkTarget?: string;
  children?: Node[];
}
const flatten = (node: Node): Node[] => [node, ...(node.children ?? []).flatMap(flatten)];

describe('GET /api/images/metadata', () => {
  it('answers the manifest, the config and the layers of an anonymous image', async () => {
    const body = await agent.json<Record<string, unknown>>(`/api/images/metadata?${q({ image: app })}`);
    expect(body).toMatchObject({
      image: app,
      registry: registry.host,
      digest: manifestDigest,
      platform: 'linux/amd64',
      layerCount: 3,
      authMethod: 'anonymous',
      cached: false,
      manifest: { schemaVersion: 2 },
      config: { config: { Cmd: ['/bin/app'] }, rootfs: { type: 'layers' } },
    });
    expect(body.totalSize).toBeGreaterThan(0);
    expect(body).not.toHaveProperty('credentialSource');
  });
});

describe('GET /api/images/inspect', () => {
  it('merges the layers: replaced files, whiteouts, opaque directories, links and the layer of each', async () => {
    const body = await agent.json<{ root: Node; totalFiles: number; layers: unknown[] }>(
      `/api/images/inspect?${q({ image: app })}`,
    );
    const byPath = new Map(flatten(body.root).map((n) => [n.path, n]));
    expect([...byPath.keys()].sort()).toEqual(
      [
        '/',
        '/app',
        '/app/new.js',
        '/bin',
        '/bin/ash',
        '/bin/busybox',
        '/bin/sh',
        '/data',
        '/data/big.bin',
        '/etc',
        '/etc/os-release',
        '/var',
        '/var/cache',
        '/var/cache/fresh',
      ].sort(),
    );
    expect(byPath.get('/etc/os-release')).toMatchObject({ type: 'file', size: 22, mode: 0o600, layer: 2 });
    expect(byPath.get('/bin/sh')).toMatchObject({ type: 'symlink', linkTarget: 'busybox', layer: 0 });
    expect(byPath.get('/bin/ash')).toMatchObject({ type: 'hardlink', linkTarget: 'bin/busybox' });
    expect(byPath.get('/bin/busybox')).toMatchObject({ mode: 0o755, size: 14 });
    expect(byPath.get('/var/cache/fresh')).toMatchObject({ layer: 1 });
    expect(body.totalFiles).toBe(7);
    expect(body.layers).toHaveLength(3);
    // Everything was read once: now it is in the cache.
    expect((await agent.json(`/api/images/metadata?${q({ image: app })}`)).cached).toBe(true);
  });

  it("resolves a multi-platform index to the nodes' platform, or to the one asked for", async () => {
    const archOf = async (params: Record<string, string>) => {
      const res = await agent.request(`/api/images/file?${q({ image: multi, path: '/arch', ...params })}`);
      expect(res.status).toBe(200);
      return res.text();
    };
    expect(await archOf({})).toBe('amd64');
    expect(await archOf({ platform: 'linux/arm64' })).toBe('arm64');
    const meta = await agent.json(`/api/images/metadata?${q({ image: multi, platform: 'linux/arm64' })}`);
    expect(meta).toMatchObject({ platform: 'linux/arm64' });
    expect(meta.indexDigest).toMatch(/^sha256:/);
    const missing = await agent.request(
      `/api/images/inspect?${q({ image: multi, platform: 'windows/amd64' })}`,
    );
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 'not_found',
      error: expect.stringContaining('offers linux/arm64, linux/amd64'),
    });
  });
});

describe('GET /api/images/file', () => {
  it('streams a file as an attachment, following symbolic and hard links', async () => {
    const res = await agent.request(`/api/images/file?${q({ image: app, path: '/etc/os-release' })}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="os-release"');
    expect(res.headers.get('content-length')).toBe('22');
    expect(await res.text()).toBe('ID=binnacle\nVERSION=2\n');
    for (const path of ['/bin/sh', '/bin/ash', '/bin/../bin/busybox']) {
      const linked = await agent.request(`/api/images/file?${q({ image: app, path })}`);
      expect(await linked.text()).toBe('busybox binary');
    }
  });
});

describe('bad input', () => {
  it.each([
    [
      'a reference that does not parse',
      { image: 'Not An Image' },
      400,
      'invalid_request',
      'query parameter "image"',
    ],
    ['a pod without namespace', { image: app, pod: 'p' }, 400, 'invalid_request', '"namespace"'],
    ['a platform that is no platform', { image: app, platform: 'amd64' }, 400, 'invalid_request', 'platform'],
    ['an unknown tag', { image: `${app.slice(0, -2)}:nope` }, 404, 'not_found', registry.host],
  ])('%s', async (_, params, status, code, message) => {
    for (const route of ['metadata', 'inspect']) {
      const res = await agent.request(`/api/images/${route}?${q(params)}`);
      expect(res.status).toBe(status);
      const body = (await res.json()) as { code: string; error: string };
      expect(body.code).toBe(code);
      expect(body.error).toContain(message);
    }
  });

  it('refuses an unknown query parameter (strict query strings)', async () => {
    const res = await agent.request(`/api/images/inspect?${q({ image: app, tag: 'x' })}`);
    expect(res.status).toBe(400);
  });

  it.each([
    ['a path outside the tree', '/etc/secret.conf', 404, 'not_found'],
    ['a path that climbs out', '/../../../../app/old.js', 404, 'not_found'],
    ['a directory', '/etc', 400, 'invalid_request'],
    ['a file over the cap', '/data/big.bin', 413, 'image_file_too_large'],
  ])('file: %s', async (_, path, status, code) => {
    const res = await agent.request(`/api/images/file?${q({ image: app, path })}`);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ code });
  });

  it('answers 502 naming a registry that cannot be reached', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    const res = await agent.request(`/api/images/metadata?${q({ image: `${closed}/app:1` })}`);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      code: 'registry_error',
      error: expect.stringContaining(`the registry ${closed} cannot be reached`),
    });
  });

  it('reads the pod as the agent: a pod that does not exist is 404', async () => {
    const ns = await testCluster().namespace('images-nopod');
    try {
      const res = await agent.request(
        `/api/images/metadata?${q({ image: app, namespace: ns.name, pod: 'absent' })}`,
      );
      expect(res.status).toBe(404);
    } finally {
      await ns.remove();
    }
  });
});
