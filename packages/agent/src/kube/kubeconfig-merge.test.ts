import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readKubeconfig } from './kubeconfig-file.ts';
import { mergeKubeconfigEntry } from './kubeconfig-merge.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'binnacle-merge-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const existing = `# my clusters
apiVersion: v1
kind: Config
current-context: home
clusters:
- name: home
  cluster: {server: 'https://home.example:6443'}
users:
- name: home
  user: {token: abc}
contexts:
- name: home
  context: {cluster: home, user: home}
`;

const entry = (server: string) => ({
  name: 'capi-ns-work',
  cluster: { server, 'certificate-authority-data': 'Q0E=' },
  user: { token: 'xyz' },
});

describe('mergeKubeconfigEntry', () => {
  it('adds a context with its cluster and user, keeping the rest, the comments, the current context and the mode', async () => {
    const path = join(dir, 'config');
    await writeFile(path, existing, { mode: 0o640 });
    await mergeKubeconfigEntry(path, entry('https://work.example:6443'));
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('# my clusters\n')).toBe(true);
    const config = readKubeconfig([path]);
    expect(config.currentContext).toBe('home');
    expect([...config.contexts.keys()]).toEqual(['home', 'capi-ns-work']);
    expect(config.contexts.get('capi-ns-work')).toMatchObject({
      cluster: 'capi-ns-work',
      user: 'capi-ns-work',
    });
    expect(config.clusters.get('capi-ns-work')).toMatchObject({
      server: 'https://work.example:6443',
      certificateAuthorityData: 'Q0E=',
    });
    expect(config.users.get('capi-ns-work')).toMatchObject({ token: 'xyz' });
    expect((await stat(path)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['config']);
  });

  it('replaces the entries of a context added before (a reconnect refreshes its credentials)', async () => {
    const path = join(dir, 'config');
    await writeFile(path, existing, { mode: 0o600 });
    await mergeKubeconfigEntry(path, entry('https://old.example:6443'));
    await mergeKubeconfigEntry(path, entry('https://new.example:6443'));
    const config = readKubeconfig([path]);
    expect([...config.clusters.keys()]).toEqual(['home', 'capi-ns-work']);
    expect(config.clusters.get('capi-ns-work')?.server).toBe('https://new.example:6443');
  });

  it('makes a kubeconfig of an empty file', async () => {
    const path = join(dir, 'config');
    await writeFile(path, '', { mode: 0o600 });
    await mergeKubeconfigEntry(path, entry('https://work.example:6443'));
    expect([...readKubeconfig([path]).contexts.keys()]).toEqual(['capi-ns-work']);
  });
});
