import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { ExecPlugin, KubeconfigCluster, KubeconfigUser } from './kubeconfig-file.ts';

export type AuthMethod = 'client-certificate' | 'token' | 'exec' | 'auth-provider' | 'basic' | 'none';

/** How the agent proves who it is to the API server: a client certificate, headers, or both. */
export interface Credentials {
  method: AuthMethod;
  cert?: Buffer;
  key?: Buffer;
  /** The Authorization header (when there is one), fresh: token files re-read, exec credentials re-run. */
  headers(): Promise<Record<string, string>>;
}

/** A token file is re-read this often, so a rotated service-account token is picked up. */
const tokenFileRefreshMs = 10_000;
/** An exec credential without an expiry is re-run this often; one with an expiry this long before it. */
const execRefreshMs = 5 * 60_000;
const execEarlyMs = 10_000;
const execTimeoutMs = 60_000;

const bearer = (token: string) => ({ Authorization: `Bearer ${token.trim()}` });
/** Headers that never change (a static token, basic auth, none). */
const fixed = (headers: Record<string, string>) => () => Promise.resolve(headers);

/** Caches a value for as long as `until` says, computing it once even under concurrent callers. */
function refreshing<T>(load: () => Promise<{ value: T; until: number }>): () => Promise<T> {
  let current: Promise<{ value: T; until: number }> | undefined;
  return async () => {
    const held = current && (await current.catch(() => undefined));
    if (held && Date.now() < held.until) return held.value;
    current = load();
    return (await current).value;
  };
}

interface ExecResult {
  token?: string;
  cert?: Buffer;
  key?: Buffer;
  expiresAt?: number;
}

/** Runs a credential plugin as kubectl does (ExecCredential on stdout, KUBERNETES_EXEC_INFO in its env). */
export async function runExecPlugin(plugin: ExecPlugin, cluster: KubeconfigCluster): Promise<ExecResult> {
  const command =
    plugin.command.includes('/') && !isAbsolute(plugin.command)
      ? resolve(plugin.baseDir, plugin.command)
      : plugin.command;
  const spec: Record<string, unknown> = { interactive: false };
  if (plugin.provideClusterInfo)
    spec.cluster = {
      server: cluster.server,
      'tls-server-name': cluster.tlsServerName,
      'insecure-skip-tls-verify': cluster.insecureSkipTlsVerify,
      'certificate-authority-data': cluster.certificateAuthorityData,
    };
  const env = {
    ...process.env,
    ...Object.fromEntries(plugin.env.map((e) => [e.name, e.value])),
    KUBERNETES_EXEC_INFO: JSON.stringify({ apiVersion: plugin.apiVersion, kind: 'ExecCredential', spec }),
  };
  const stdout = await new Promise<string>((done, fail) => {
    const child = execFile(
      command,
      plugin.args,
      { env, timeout: execTimeoutMs, maxBuffer: 1 << 20 },
      (error, out, err) => {
        if (error)
          fail(
            new Error(
              `credential plugin ${plugin.command} failed: ${String(err).trim() || error.message}`.slice(
                0,
                2000,
              ),
            ),
          );
        else done(out);
      },
    );
    child.stdin?.end();
  });
  let status: Record<string, unknown>;
  try {
    status = ((JSON.parse(stdout) as { status?: Record<string, unknown> }).status ?? {}) as typeof status;
  } catch {
    throw new Error(`credential plugin ${plugin.command} printed no ExecCredential JSON`);
  }
  const expiry =
    typeof status.expirationTimestamp === 'string' ? Date.parse(status.expirationTimestamp) : NaN;
  const result: ExecResult = {
    token: typeof status.token === 'string' ? status.token : undefined,
    cert:
      typeof status.clientCertificateData === 'string'
        ? Buffer.from(status.clientCertificateData)
        : undefined,
    key: typeof status.clientKeyData === 'string' ? Buffer.from(status.clientKeyData) : undefined,
    expiresAt: Number.isNaN(expiry) ? undefined : expiry,
  };
  if (!result.token && !(result.cert && result.key))
    throw new Error(`credential plugin ${plugin.command} returned neither a token nor a client certificate`);
  return result;
}

/** A legacy auth provider (oidc, gcp, azure) is rare: its library loads only for a kubeconfig that uses one. */
async function authProviderHeaders(user: KubeconfigUser, cluster: KubeconfigCluster) {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: cluster.name, server: cluster.server, skipTLSVerify: cluster.insecureSkipTlsVerify }],
    users: [{ name: user.name, authProvider: user.authProvider }],
    contexts: [{ name: 'binnacle', cluster: cluster.name, user: user.name }],
    currentContext: 'binnacle',
  });
  return async () => {
    const options: { headers?: Record<string, string> } = {};
    await kc.applyToHTTPSOptions(options);
    return { ...options.headers };
  };
}

const pem = (data?: string, file?: string): Promise<Buffer | undefined> =>
  data ? Promise.resolve(Buffer.from(data, 'base64')) : file ? readFile(file) : Promise.resolve(undefined);

/** The credentials a kubeconfig user entry describes, in kubectl's order of precedence. */
export async function credentialsFor(
  user: KubeconfigUser | undefined,
  cluster: KubeconfigCluster,
): Promise<Credentials> {
  if (!user) return { method: 'none', headers: fixed({}) };
  const cert = await pem(user.clientCertificateData, user.clientCertificate);
  const key = await pem(user.clientKeyData, user.clientKey);
  if (user.exec) {
    const plugin = user.exec;
    const initial = await runExecPlugin(plugin, cluster);
    let unused: ExecResult | undefined = initial;
    const token = refreshing(async () => {
      const result = unused ?? (await runExecPlugin(plugin, cluster));
      unused = undefined;
      const until = result.expiresAt ? result.expiresAt - execEarlyMs : Date.now() + execRefreshMs;
      return { value: result.token, until };
    });
    // The certificate is fixed for the agent's connections; a plugin that returns one rotates it on restart.
    return {
      method: 'exec',
      cert: initial.cert ?? cert,
      key: initial.key ?? key,
      headers: async () => {
        const value = await token();
        return value ? bearer(value) : {};
      },
    };
  }
  if (user.authProvider)
    return { method: 'auth-provider', cert, key, headers: await authProviderHeaders(user, cluster) };
  if (user.token) return { method: 'token', cert, key, headers: fixed(bearer(user.token)) };
  if (user.tokenFile) {
    const file = user.tokenFile;
    const token = refreshing(async () => ({
      value: await readFile(file, 'utf8'),
      until: Date.now() + tokenFileRefreshMs,
    }));
    return { method: 'token', cert, key, headers: async () => bearer(await token()) };
  }
  if (cert && key) return { method: 'client-certificate', cert, key, headers: fixed({}) };
  if (user.username) {
    const basic = Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64');
    return { method: 'basic', headers: fixed({ Authorization: `Basic ${basic}` }) };
  }
  return { method: 'none', headers: fixed({}) };
}
