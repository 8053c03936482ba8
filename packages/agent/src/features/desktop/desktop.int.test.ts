import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { waitUntil } from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentVersion } from '../../agent.ts';
import { startTestAgent, type TestAgent } from '../../testing/index.ts';
import { maxSaveBytes } from './downloads.ts';
import { platformKey } from './manifest.ts';

/**
 * The desktop helpers on real agents: the opener is a recording `xdg-open` first on PATH, the release
 * manifest and its builds come from a local HTTP server, and the executable an update replaces is a file of
 * the test's own (the agent under test is no single executable).
 */
const oldBytes = Buffer.from('#!/bin/sh\necho old\n');
const newBytes = Buffer.from('#!/bin/sh\necho new build\n');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const good = { url: 'builds/binnacle', sha256: sha256(newBytes), size: newBytes.length };

let root: string;
let downloads: string;
let executable: string;
let opened: string;
let savedPath: string | undefined;
let releases: Server;
let manifest: unknown;
/** Holds a build's answer until released: an apply stays in `downloading` meanwhile. */
let gate: Promise<void> | undefined;
let desktop: TestAgent;
let noManifest: TestAgent;
let plain: TestAgent;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'binnacle-desktop-'));
  downloads = join(root, 'Downloads');
  executable = join(root, 'app', 'binnacle');
  await mkdir(dirname(executable));
  await writeFile(executable, oldBytes, { mode: 0o700 });
  opened = join(root, 'opened.txt');
  const bin = join(root, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
  savedPath = process.env.PATH;
  process.env.PATH = `${bin}${delimiter}${savedPath}`;

  releases = createServer((request, response) => {
    if (request.url === '/desktop/latest.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(manifest));
    } else if (request.url === '/desktop/builds/binnacle') {
      void Promise.resolve(gate).then(() => {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(newBytes);
      });
    } else {
      response.writeHead(404).end();
    }
  });
  releases.listen(0, '127.0.0.1');
  await once(releases, 'listening');
  const updateUrl = `http://127.0.0.1:${(releases.address() as AddressInfo).port}/desktop/latest.json`;

  desktop = await startTestAgent({
    start: false,
    config: { desktop: true, downloadsDir: downloads, updateUrl, desktopExecutablePath: executable },
  });
  // A port that was just free and is closed again: nothing answers the manifest request.
  const closed = createServer().listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  noManifest = await startTestAgent({
    start: false,
    config: {
      desktop: true,
      downloadsDir: downloads,
      updateUrl: `http://127.0.0.1:${closedPort}/latest.json`,
    },
  });
  plain = await startTestAgent({
    start: false,
    config: { downloadsDir: join(root, 'plain-downloads'), updateUrl, desktopExecutablePath: executable },
  });
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await Promise.all([desktop?.close(), noManifest?.close(), plain?.close()]);
  releases?.close();
  await rm(root, { recursive: true, force: true });
});

async function call(agent: TestAgent, path: string, body?: unknown) {
  const response = path.endsWith('/status')
    ? await agent.request(`/api/desktop/${path}`)
    : await agent.post(`/api/desktop/${path}`, body);
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const openedLines = async () => (await readFile(opened, 'utf8').catch(() => '')).split('\n').filter(Boolean);

/** What the recording opener received last, once it has run. */
async function lastOpened(count: number): Promise<string | undefined> {
  await waitUntil('the opener to run', async () => (await openedLines()).length >= count, {
    timeoutMs: 5000,
    intervalMs: 20,
  });
  return (await openedLines()).at(-1);
}

describe('POST /api/desktop/save-file', () => {
  it('writes into the downloads folder (created) under the safe name, numbered when taken', async () => {
    const first = await call(desktop, 'save-file', { filename: 'pods.yaml', content: 'kind: Pod\n' });
    expect(first).toEqual({
      status: 200,
      json: { desktop: true, path: join(downloads, 'pods.yaml'), name: 'pods.yaml', size: 10 },
    });
    expect(await readFile(join(downloads, 'pods.yaml'), 'utf8')).toBe('kind: Pod\n');
    const second = await call(desktop, 'save-file', { filename: 'pods.yaml', content: 'again' });
    expect(second.json).toMatchObject({ name: 'pods (1).yaml', size: 5 });
    expect(await readFile(join(downloads, 'pods.yaml'), 'utf8')).toBe('kind: Pod\n');

    const escaped = await call(desktop, 'save-file', { filename: '../../.profile', content: 'x' });
    expect(escaped.json).toMatchObject({ path: join(downloads, 'profile'), name: 'profile' });
  });

  it('never lets two concurrent saves of one name write the same file', async () => {
    const saves = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(desktop, 'save-file', { filename: 'same.txt', content: `save ${i}` }),
      ),
    );
    const names = saves.map((s) => s.json.name as string);
    expect(new Set(names).size).toBe(8);
    expect(names.sort()).toEqual([
      'same (1).txt',
      'same (2).txt',
      'same (3).txt',
      'same (4).txt',
      'same (5).txt',
      'same (6).txt',
      'same (7).txt',
      'same.txt',
    ]);
    for (const [i, save] of saves.entries())
      expect(await readFile(save.json.path as string, 'utf8')).toBe(`save ${i}`);
  });

  it('decodes base64, and refuses bad base64, unknown fields and more than 64 MiB', async () => {
    const bytes = Buffer.from([0, 1, 2, 254, 255]);
    const saved = await call(desktop, 'save-file', {
      filename: 'bytes.bin',
      content: bytes.toString('base64'),
      encoding: 'base64',
    });
    expect(saved.json).toMatchObject({ name: 'bytes.bin', size: 5 });
    expect(await readFile(join(downloads, 'bytes.bin'))).toEqual(bytes);

    const bad = await call(desktop, 'save-file', {
      filename: 'b.bin',
      content: 'not base64!',
      encoding: 'base64',
    });
    expect(bad).toMatchObject({
      status: 400,
      json: { code: 'invalid_request', error: expect.stringMatching(/base64/) },
    });
    const extra = await call(desktop, 'save-file', { filename: 'a', content: '', mode: 'append' });
    expect(extra.status).toBe(400);
    const tooLarge = await call(desktop, 'save-file', {
      filename: 'big.txt',
      content: 'x'.repeat(maxSaveBytes + 1),
    });
    expect(tooLarge).toMatchObject({
      status: 413,
      json: { code: 'payload_too_large', error: expect.stringMatching(/save-file writes at most/) },
    });
    // Beyond the 1 MiB other routes take: save-file's own body limit holds its largest file in base64.
    const large = Buffer.alloc(5 * 1024 * 1024, 7);
    const saved5 = await call(desktop, 'save-file', {
      filename: 'large.bin',
      content: large.toString('base64'),
      encoding: 'base64',
    });
    expect(saved5.json).toMatchObject({ name: 'large.bin', size: large.length });
    expect(await readdir(downloads)).not.toContain('big.txt');
  });
});

describe('POST /api/desktop/open-url, open-file, open-folder', () => {
  it('hands http(s) URLs to the opener and refuses other schemes naming them', async () => {
    const before = (await openedLines()).length;
    const url = 'https://example.com/docs?a=1&b=2';
    expect(await call(desktop, 'open-url', { url })).toEqual({
      status: 200,
      json: { desktop: true, opened: url },
    });
    expect(await lastOpened(before + 1)).toBe(url);
    for (const [given, scheme] of [
      ['file:///etc/passwd', 'file'],
      ['javascript:alert(1)', 'javascript'],
    ]) {
      const refused = await call(desktop, 'open-url', { url: given });
      expect(refused).toMatchObject({ status: 400, json: { code: 'invalid_request' } });
      expect(refused.json.error).toContain(`"${scheme}"`);
    }
    expect(await call(desktop, 'open-url', { url: 'example.com' })).toMatchObject({ status: 400 });
    expect((await openedLines()).length).toBe(before + 1);
  });

  it('opens files and folders inside the downloads folder and the data directory only', async () => {
    let count = (await openedLines()).length;
    const file = join(downloads, 'pods.yaml');
    expect((await call(desktop, 'open-file', { path: file })).json).toEqual({ desktop: true, opened: file });
    expect(await lastOpened(++count)).toBe(file);
    expect((await call(desktop, 'open-folder', { path: downloads })).json).toMatchObject({
      opened: downloads,
    });
    expect(await lastOpened(++count)).toBe(downloads);
    // A file given to open-folder opens the folder holding it.
    expect((await call(desktop, 'open-folder', { path: file })).json).toMatchObject({ opened: downloads });
    expect(await lastOpened(++count)).toBe(downloads);
    const inData = join(desktop.dataDir, 'notes.txt');
    await writeFile(inData, 'n');
    expect((await call(desktop, 'open-file', { path: inData })).status).toBe(200);
    expect(await lastOpened(++count)).toBe(inData);

    const outside = await call(desktop, 'open-file', { path: executable });
    expect(outside).toMatchObject({ status: 403, json: { code: 'outside_allowed_folders' } });
    expect(outside.json.error).toContain(downloads);
    expect(outside.json.error).toContain(desktop.dataDir);
    expect(await call(desktop, 'open-folder', { path: join(downloads, '..') })).toMatchObject({
      status: 403,
    });
    expect(await call(desktop, 'open-file', { path: join(downloads, 'missing.txt') })).toMatchObject({
      status: 404,
      json: { code: 'not_found' },
    });
    expect(await call(desktop, 'open-file', { path: downloads })).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/is a folder/) },
    });
    expect(await call(desktop, 'open-file', { path: 'Downloads/pods.yaml' })).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/not an absolute path/) },
    });
    expect((await openedLines()).length).toBe(count);
  });

  it('answers 503 opener_unavailable when no opener can start', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(root, 'app');
    try {
      const answer = await call(desktop, 'open-url', { url: 'https://example.com/' });
      expect(answer).toMatchObject({
        status: 503,
        json: { code: 'opener_unavailable', error: expect.stringMatching(/xdg-open.*ENOENT/) },
      });
    } finally {
      process.env.PATH = path;
    }
  });

  it("refuses another site's page", async () => {
    const response = await desktop.request('/api/desktop/open-url', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ url: 'https://evil.example/' }),
    });
    expect(response.status).toBe(403);
  });
});

describe('the desktop update', () => {
  const idle = { desktop: true, current: agentVersion, available: false, restartRequired: false };

  it('starts idle, and a check finds a newer build for this platform', async () => {
    expect(await call(desktop, 'update/status')).toEqual({ status: 200, json: { ...idle, state: 'idle' } });
    manifest = { version: agentVersion, assets: { [platformKey()]: good } };
    expect((await call(desktop, 'update')).json).toMatchObject({
      ...idle,
      state: 'idle',
      latest: agentVersion,
    });
    manifest = { version: '999.0.0', assets: { [platformKey()]: { ...good, sha256: sha256(oldBytes) } } };
    const checked = await call(desktop, 'update');
    expect(checked).toMatchObject({
      status: 200,
      json: { ...idle, available: true, state: 'ready', latest: '999.0.0', checkedAt: expect.any(String) },
    });
  });

  it('deletes a build whose checksum or size is wrong and leaves the executable as it was', async () => {
    const mismatch = await call(desktop, 'update/apply');
    expect(mismatch).toMatchObject({ status: 422, json: { code: 'checksum_mismatch' } });
    expect(mismatch.json.error).toContain(sha256(newBytes));
    manifest = { version: '999.0.0', assets: { [platformKey()]: { ...good, size: newBytes.length - 1 } } };
    expect(await call(desktop, 'update/apply')).toMatchObject({
      status: 422,
      json: { code: 'checksum_mismatch', error: expect.stringMatching(/larger than/) },
    });
    expect(await readFile(executable)).toEqual(oldBytes);
    expect(await readdir(dirname(executable))).toEqual(['binnacle']);
    expect((await call(desktop, 'update/status')).json).toMatchObject({
      state: 'error',
      error: expect.stringMatching(/manifest/),
      restartRequired: false,
    });
  });

  it('replaces the executable with a verified build, one apply at a time', async () => {
    manifest = { version: '999.0.0', assets: { [platformKey()]: good } };
    let release = () => {};
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const applying = call(desktop, 'update/apply');
    await waitUntil(
      'the download to start',
      async () => (await call(desktop, 'update/status')).json.state === 'downloading',
      { timeoutMs: 5000, intervalMs: 20 },
    );
    expect(await call(desktop, 'update/apply')).toMatchObject({
      status: 409,
      json: { code: 'update_in_progress' },
    });
    expect(await call(desktop, 'update')).toMatchObject({
      status: 409,
      json: { code: 'update_in_progress' },
    });
    release();
    gate = undefined;
    expect(await applying).toEqual({
      status: 200,
      json: { desktop: true, applied: true, version: '999.0.0', restartRequired: true },
    });
    expect(await readFile(executable)).toEqual(newBytes);
    expect((await stat(executable)).mode & 0o777).toBe(0o755);
    expect(await readdir(dirname(executable))).toEqual(['binnacle']);
    expect((await call(desktop, 'update/status')).json).toMatchObject({
      state: 'applied',
      available: false,
      restartRequired: true,
      latest: '999.0.0',
    });
    expect(await call(desktop, 'update/apply')).toMatchObject({
      status: 409,
      json: { code: 'update_not_available' },
    });
  });

  it('reports an unreachable manifest as an error state, and has nothing to replace outside the binary', async () => {
    const failed = await call(noManifest, 'update');
    expect(failed).toMatchObject({
      status: 502,
      json: {
        code: 'update_source_error',
        error: expect.stringMatching(/could not be fetched \(ECONNREFUSED\)/),
      },
    });
    expect((await call(noManifest, 'update/status')).json).toMatchObject({
      state: 'error',
      error: failed.json.error,
      available: false,
    });
    expect(await call(noManifest, 'update/apply')).toMatchObject({
      status: 409,
      json: { code: 'not_single_executable' },
    });
  });
});

describe('outside desktop mode', () => {
  it('answers every desktop route with {desktop: false} and does nothing', async () => {
    await writeFile(executable, oldBytes);
    manifest = { version: '999.0.0', assets: { [platformKey()]: good } };
    const before = await openedLines();
    const file = join(downloads, 'pods.yaml');
    for (const [path, body] of [
      ['open-url', { url: 'https://example.com/' }],
      ['open-file', { path: file }],
      ['open-folder', { path: downloads }],
      ['save-file', { filename: 'x.txt', content: 'x' }],
      ['update', undefined],
      ['update/apply', undefined],
      ['update/status', undefined],
    ] as const)
      expect(await call(plain, path, body), path).toEqual({ status: 200, json: { desktop: false } });
    // A barrier instead of a wait: the desktop agent's opener runs after anything the plain agent might have run.
    const barrier = 'https://example.com/after-the-plain-agent';
    expect((await call(desktop, 'open-url', { url: barrier })).status).toBe(200);
    expect(await lastOpened(before.length + 1)).toBe(barrier);
    expect(await openedLines()).toEqual([...before, barrier]);
    await expect(stat(join(root, 'plain-downloads'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(executable)).toEqual(oldBytes);
    const config = await plain.json<{ effective: { desktop: boolean } }>('/api/config');
    expect(config.effective.desktop).toBe(false);
    expect((await desktop.json<{ effective: { desktop: boolean } }>('/api/config')).effective.desktop).toBe(
      true,
    );
  });
});
