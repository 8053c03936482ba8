import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KubeconfigError, resolveTarget } from './kubeconfig.ts';
import { readKubeconfig } from './kubeconfig-file.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'binnacle-kubeconfig-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const write = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

const kubeconfig = (context: string, user: string, clusterLines = '') => `apiVersion: v1
kind: Config
current-context: ${context}
clusters:
- name: ${context}
  cluster:
    server: https://${context}.example:6443
${clusterLines}
contexts:
- name: ${context}
  context: {cluster: ${context}, user: ${context}, namespace: team-${context}}
users:
- name: ${context}
  user:
${user}
`;

describe('kubeconfig files', () => {
  it('merge as kubectl merges a KUBECONFIG list: the first name and current context win', async () => {
    const first = await write(
      'a.yaml',
      kubeconfig('alpha', '    token: alpha-token', '    certificate-authority: certs/ca.pem'),
    );
    const second = await write(
      'b.yaml',
      `${kubeconfig('beta', '    token: beta-token')}\n`.replace(
        'clusters:',
        'clusters:\n- name: alpha\n  cluster: {server: https://shadowed.example}',
      ),
    );
    const merged = readKubeconfig([first, second]);
    expect(merged.currentContext).toBe('alpha');
    expect([...merged.contexts.keys()]).toEqual(['alpha', 'beta']);
    expect(merged.clusters.get('alpha')?.server).toBe('https://alpha.example:6443');
    // A relative path is relative to the file that wrote it.
    expect(merged.clusters.get('alpha')?.certificateAuthority).toBe(join(dir, 'certs/ca.pem'));
  });

  it('say which context is missing, and which ones exist', async () => {
    const file = await write('a.yaml', kubeconfig('alpha', '    token: t'));
    await expect(resolveTarget({ kubeconfig: file, context: 'gamma' })).rejects.toThrow(
      new KubeconfigError('context "gamma" not found; the kubeconfig has: alpha'),
    );
    const target = await resolveTarget({ kubeconfig: file });
    expect(target).toMatchObject({
      contextName: 'alpha',
      defaultNamespace: 'team-alpha',
      authMethod: 'token',
    });
    expect(await target.authHeaders()).toEqual({ Authorization: 'Bearer t' });
  });

  it('refuse a file that is not YAML, naming it', async () => {
    const file = await write('broken.yaml', 'clusters: [\n');
    await expect(resolveTarget({ kubeconfig: file })).rejects.toThrow(/broken\.yaml cannot be read/);
  });
});

describe('credentials', () => {
  it('run an exec plugin with the cluster info, and reuse its token until it is about to expire', async () => {
    const calls = join(dir, 'calls');
    const plugin = await write(
      'plugin.sh',
      `#!/bin/sh
echo run >> "${calls}"
case "$KUBERNETES_EXEC_INFO" in *'"server":"https://alpha.example:6443"'*) ;; *) echo "no cluster info" >&2; exit 1;; esac
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-%s","expirationTimestamp":"2999-01-01T00:00:00Z"}}' "$PLUGIN_ARG"
`,
    );
    await chmod(plugin, 0o755);
    const user = `    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./plugin.sh
      provideClusterInfo: true
      env: [{name: PLUGIN_ARG, value: exec}]`;
    const file = await write('exec.yaml', kubeconfig('alpha', user));
    const target = await resolveTarget({ kubeconfig: file });
    expect(target.authMethod).toBe('exec');
    expect(await target.authHeaders()).toEqual({ Authorization: 'Bearer from-exec' });
    expect(await target.authHeaders()).toEqual({ Authorization: 'Bearer from-exec' });
    expect((await readFile(calls, 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it('say what a failing exec plugin said', async () => {
    const plugin = await write('fail.sh', '#!/bin/sh\necho "token expired, run login" >&2\nexit 3\n');
    await chmod(plugin, 0o755);
    const user = `    exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}}`;
    const file = await write('fail.yaml', kubeconfig('alpha', user));
    await expect(resolveTarget({ kubeconfig: file })).rejects.toThrow(/token expired, run login/);
  });

  it('re-read a token file, so a rotated token is used', async () => {
    const token = await write('token', 'first\n');
    const file = await write('file.yaml', kubeconfig('alpha', `    tokenFile: ${token}`));
    const target = await resolveTarget({ kubeconfig: file });
    expect(await target.authHeaders()).toEqual({ Authorization: 'Bearer first' });
    await writeFile(token, 'second\n');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 11_000);
      expect(await target.authHeaders()).toEqual({ Authorization: 'Bearer second' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('read client certificates and the CA from data or files, and basic auth', async () => {
    const data = (text: string) => Buffer.from(text).toString('base64');
    await write('ca.pem', 'CA-PEM');
    const user = `    client-certificate-data: ${data('CERT')}\n    client-key: key.pem`;
    await write('key.pem', 'KEY');
    const file = await write('cert.yaml', kubeconfig('alpha', user, '    certificate-authority: ca.pem'));
    const target = await resolveTarget({ kubeconfig: file });
    expect(target.authMethod).toBe('client-certificate');
    expect(target.tls).toMatchObject({ rejectUnauthorized: true });
    expect(String(target.tls.ca)).toBe('CA-PEM');
    expect(String(target.tls.cert)).toBe('CERT');
    expect(String(target.tls.key)).toBe('KEY');
    const basic = await write('basic.yaml', kubeconfig('alpha', '    username: ops\n    password: pw'));
    expect(await (await resolveTarget({ kubeconfig: basic })).authHeaders()).toEqual({
      Authorization: `Basic ${data('ops:pw')}`,
    });
  });
});
