import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTerminal, testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';

const cluster = testCluster();
const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let tree: string;
const pod = 'shell';

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('exec')]);
  await core.createNamespacedPod({
    namespace: ns.name,
    body: { metadata: { name: pod }, spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } },
  });
  await waitUntil(
    'the pod running in the agent cache',
    async () => {
      const res = await agent.request(`/api/resources/pods/${ns.name}/${pod}`);
      return (
        res.ok &&
        ((await res.json()) as { resource: { status: { phase: string } } }).resource.status.phase ===
          'Running'
      );
    },
    { timeoutMs: 30_000 },
  );
  // kwok runs exec commands on this host, so a host directory is the "container" tree.
  tree = await mkdtemp(join(tmpdir(), 'binnacle-files-'));
  await mkdir(join(tree, 'conf', 'nested'), { recursive: true });
  await writeFile(join(tree, 'conf', 'app.yaml'), 'port: 8080\n');
  await writeFile(join(tree, 'conf', 'nested', 'deep.txt'), 'deep\n');
  await writeFile(join(tree, 'README'), 'hello\n');
});
afterAll(async () => {
  await Promise.all([agent?.close(), ns?.remove(), rm(tree, { recursive: true, force: true })]);
});

const execUrl = (query = '') => `${agent.url}/api/pods/${ns.name}/${pod}/exec${query}`;

describe('exec over WebSocket', () => {
  it('runs a shell that echoes input and honours a resize', async () => {
    const term = await openTerminal(execUrl());
    term.resize(132, 43);
    term.input('echo ready-$((6*7)); stty size\r');
    await term.next(() => term.output().includes('43 132'));
    expect(term.output()).toContain('ready-42');
    term.resize(100, 30);
    // The resize travels on its own channel and may land after the next command, and kwok's TTY exec can drop
    // the last output of a shell that exits at once: ask until the new size shows, then exit.
    await waitUntil(
      'the terminal reports its new size',
      () => {
        if (term.output().includes('30 100')) return Promise.resolve(true);
        term.input('stty size\r');
        return Promise.resolve(false);
      },
      { timeoutMs: 10_000, intervalMs: 300 },
    );
    term.input('exit 3\r');
    const exit = await term.next((f) => f.type === 'exit');
    expect(exit.code).toBe(3);
    expect(await term.closed).toBe(1000);
  });

  it('runs a given command and reports a clear error frame when it cannot start', async () => {
    // The command lingers a moment: kwok's TTY exec can drop the output of a process that exits at once.
    const ls = await openTerminal(
      execUrl(`?command=sh&command=-c&command=${encodeURIComponent('echo from-argv; sleep 0.3')}`),
    );
    await ls.next((f) => f.type === 'exit');
    expect(ls.output()).toContain('from-argv');
    const missing = await openTerminal(execUrl('?command=binnacle-no-such-binary'));
    const error = await missing.next((f) => f.type === 'error' || f.type === 'exit');
    expect(error).toMatchObject({
      type: 'error',
      errorType: 'exec_error',
      message: expect.stringMatching(/not found|no such file/i),
    });
  });

  it('refuses bad input before the upgrade, as HTTP errors', async () => {
    await expect(openTerminal(`${agent.url}/api/pods/${ns.name}/missing/exec`)).rejects.toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    await expect(openTerminal(execUrl('?container=sidecar'))).rejects.toMatchObject({
      status: 404,
      body: { error: `pod ${ns.name}/${pod} has no container "sidecar"; it has: main` },
    });
    await expect(openTerminal(execUrl('?cols=5000'))).rejects.toMatchObject({
      status: 400,
      body: { error: 'query parameter "cols" must be <= 1000' },
    });
    const plain = await agent.request(`/api/pods/${ns.name}/${pod}/exec`);
    expect(plain.status).toBe(426);
    expect(((await plain.json()) as { code: string }).code).toBe('upgrade_required');
  });

  it('answers a frame that is not a terminal frame without closing', async () => {
    const term = await openTerminal(execUrl());
    try {
      (term as unknown as { input: (d: string) => void }).input('echo still-here\r');
      await term.next(() => term.output().includes('still-here'));
    } finally {
      term.close();
    }
  });
});

describe('the local terminal', () => {
  it('is a shell on the agent host', async () => {
    const term = await openTerminal(`${agent.url}/api/local-terminal?cols=90&rows=20`);
    term.input('stty size; echo local-$((1+1)); exit\r');
    await term.next((f) => f.type === 'exit');
    expect(term.output()).toContain('20 90');
    expect(term.output()).toContain('local-2');
  });

  it('is refused when disabled, and the capabilities say so', async () => {
    const off = await startTestAgent({ config: { disableLocalTerminal: true }, start: false });
    try {
      const offered = async (url: string) =>
        ((await (await fetch(`${url}/api/capabilities`)).json()) as { localTerminal: boolean }).localTerminal;
      expect([await offered(agent.url), await offered(off.url)]).toEqual([true, false]);
      await expect(openTerminal(`${off.url}/api/local-terminal`)).rejects.toMatchObject({
        status: 403,
        body: { code: 'forbidden', error: 'the local terminal is off (--disable-local-terminal)' },
      });
    } finally {
      await off.close();
    }
  });
});

/** The entry names of a tar archive (ustar headers, no long-name extensions needed here). */
function tarNames(tar: Buffer): string[] {
  const names: string[] = [];
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const name = tar
      .subarray(offset, offset + 100)
      .toString()
      .replace(/\0.*$/s, '');
    if (!name) break;
    names.push(name);
    const size = Number.parseInt(
      tar
        .subarray(offset + 124, offset + 136)
        .toString()
        .replace(/\0.*$/s, '')
        .trim() || '0',
      8,
    );
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

describe('files', () => {
  it('lists a directory, directories first', async () => {
    const listing = await agent.json<{
      path: string;
      entries: { name: string; type: string; size: number; path: string }[];
    }>(`/api/pods/${ns.name}/${pod}/files?path=${encodeURIComponent(tree)}`);
    expect(listing.path).toBe(tree);
    expect(listing.entries.map((e) => [e.name, e.type])).toEqual([
      ['conf', 'dir'],
      ['README', 'file'],
    ]);
    expect(listing.entries[1]).toMatchObject({ size: 6, path: join(tree, 'README') });
  });

  it('downloads a small tree as a tar', async () => {
    const res = await agent.request(
      `/api/pods/${ns.name}/${pod}/files/download?path=${encodeURIComponent(join(tree, 'conf'))}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-tar');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="conf.tar"');
    const names = tarNames(Buffer.from(await res.arrayBuffer()));
    expect(names.sort()).toEqual(['conf/', 'conf/app.yaml', 'conf/nested/', 'conf/nested/deep.txt']);
  });

  it('refuses path traversal and relative paths with 400, and answers 404 for a missing path', async () => {
    for (const path of ['/etc/../root', `${tree}/../..`, '..', 'conf/app.yaml', '/a/./../b']) {
      for (const route of ['files', 'files/download']) {
        const res = await agent.request(
          `/api/pods/${ns.name}/${pod}/${route}?path=${encodeURIComponent(path)}`,
        );
        expect(res.status, `${route} ${path}`).toBe(400);
        expect(((await res.json()) as { code: string }).code).toBe('invalid_request');
      }
    }
    const missing = await agent.request(
      `/api/pods/${ns.name}/${pod}/files?path=${encodeURIComponent(join(tree, 'nope'))}`,
    );
    expect(missing.status).toBe(404);
  });

  it("takes a file named like a tar option as a file (issue 37: /--help printed tar's help)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'binnacle-options-'));
    try {
      await writeFile(join(dir, '--help'), 'not an option\n');
      const download = (path: string) =>
        agent.request(`/api/pods/${ns.name}/${pod}/files/download?path=${encodeURIComponent(path)}`);
      const named = await download(join(dir, '--help'));
      expect(named.status).toBe(200);
      expect(tarNames(Buffer.from(await named.arrayBuffer()))).toEqual(['--help']);
      const atRoot = await download('/--help');
      expect(atRoot.status).toBe(404);
      expect(await atRoot.json()).toEqual({
        error: '/--help does not exist in the container',
        code: 'not_found',
      });
      const listing = await agent.json<{ entries: { name: string }[] }>(
        `/api/pods/${ns.name}/${pod}/files?path=${encodeURIComponent(dir)}`,
      );
      expect(listing.entries.map((e) => e.name)).toEqual(['--help']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('debug containers', () => {
  it('adds an ephemeral container and names it', async () => {
    const res = await agent.request(`/api/pods/${ns.name}/${pod}/debug`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ image: 'busybox:1.37' }),
    });
    expect(res.status).toBe(201);
    const answer = (await res.json()) as {
      containerName: string;
      image: string;
      targetContainer: string;
      status: string;
    };
    expect(answer).toMatchObject({
      image: 'busybox:1.37',
      targetContainer: 'main',
      containerName: expect.stringMatching(/^debugger-[0-9a-f]{6}$/),
    });
    const live = await core.readNamespacedPod({ namespace: ns.name, name: pod });
    expect(live.spec?.ephemeralContainers?.map((c) => c.name)).toContain(answer.containerName);
  });

  it('refuses an unknown target container and a bad image', async () => {
    const post = (body: object) =>
      agent.request(`/api/pods/${ns.name}/${pod}/debug`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ targetContainer: 'nope' })).status).toBe(404);
    const image = await post({ image: 'bad image; rm -rf /' });
    expect(image.status).toBe(400);
    expect(((await image.json()) as { error: string }).error).toContain(
      'body field "image" must match pattern',
    );
  });
});
