import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseYaml, yamlLimits } from '@binnacle/common/server';

/** A kubeconfig cluster entry, its file paths made absolute against the file that named them. */
export interface KubeconfigCluster {
  name: string;
  server: string;
  certificateAuthority?: string;
  certificateAuthorityData?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
}

/** A credential plugin (`users[].user.exec`), run as kubectl runs it. */
export interface ExecPlugin {
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  apiVersion: string;
  provideClusterInfo: boolean;
  /** The kubeconfig's directory: a relative command path is relative to it, as for kubectl. */
  baseDir: string;
}

export interface KubeconfigUser {
  name: string;
  clientCertificate?: string;
  clientCertificateData?: string;
  clientKey?: string;
  clientKeyData?: string;
  token?: string;
  tokenFile?: string;
  username?: string;
  password?: string;
  exec?: ExecPlugin;
  /** A legacy auth provider (oidc, gcp, azure): handed to the Kubernetes client library as it is. */
  authProvider?: { name: string; config: Record<string, string> };
}

export interface KubeconfigContext {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
}

/** One or more kubeconfig files merged the way kubectl merges a KUBECONFIG list. */
export interface Kubeconfig {
  currentContext: string;
  clusters: Map<string, KubeconfigCluster>;
  users: Map<string, KubeconfigUser>;
  contexts: Map<string, KubeconfigContext>;
}

type Entry = Record<string, unknown>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const entries = (value: unknown): Entry[] =>
  Array.isArray(value) ? value.filter((e): e is Entry => typeof e === 'object' && e !== null) : [];
const section = (entry: Entry, key: string): Entry => {
  const value = entry[key];
  return typeof value === 'object' && value !== null ? (value as Entry) : {};
};

function parseCluster(name: string, c: Entry, pathOf: (p?: string) => string | undefined): KubeconfigCluster {
  const server = text(c.server);
  if (!server) throw new Error(`cluster "${name}" has no server`);
  return {
    name,
    server,
    certificateAuthority: pathOf(text(c['certificate-authority'])),
    certificateAuthorityData: text(c['certificate-authority-data']),
    insecureSkipTlsVerify: c['insecure-skip-tls-verify'] === true,
    tlsServerName: text(c['tls-server-name']),
  };
}

function parseUser(name: string, u: Entry, pathOf: (p?: string) => string | undefined, baseDir: string) {
  const user: KubeconfigUser = {
    name,
    clientCertificate: pathOf(text(u['client-certificate'])),
    clientCertificateData: text(u['client-certificate-data']),
    clientKey: pathOf(text(u['client-key'])),
    clientKeyData: text(u['client-key-data']),
    token: text(u.token),
    tokenFile: pathOf(text(u.tokenFile)),
    username: text(u.username),
    password: text(u.password),
  };
  const exec = section(u, 'exec');
  const command = text(exec.command);
  if (command) {
    user.exec = {
      command,
      args: Array.isArray(exec.args) ? exec.args.map(String) : [],
      env: entries(exec.env).map((e) => ({ name: String(e.name), value: String(e.value ?? '') })),
      apiVersion: text(exec.apiVersion) ?? 'client.authentication.k8s.io/v1',
      provideClusterInfo: exec.provideClusterInfo === true,
      baseDir,
    };
  }
  const provider = section(u, 'auth-provider');
  const providerName = text(provider.name);
  if (providerName) {
    const config = section(provider, 'config');
    user.authProvider = {
      name: providerName,
      config: Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)])),
    };
  }
  return user;
}

/**
 * Reads kubeconfig files and merges them as kubectl does: the first file to name a cluster, user or context
 * wins, and so does the first `current-context` that is set. Relative paths are relative to their own file.
 */
export function readKubeconfig(files: string[]): Kubeconfig {
  const merged: Kubeconfig = {
    currentContext: '',
    clusters: new Map(),
    users: new Map(),
    contexts: new Map(),
  };
  for (const file of files) {
    const doc = (parseYaml(readFileSync(file, 'utf8'), yamlLimits.stored, file) ?? {}) as Entry;
    if (typeof doc !== 'object') throw new Error(`${file} is not a kubeconfig (a YAML mapping)`);
    const baseDir = dirname(resolve(file));
    const pathOf = (p?: string) => (p === undefined || isAbsolute(p) ? p : resolve(baseDir, p));
    merged.currentContext ||= text(doc['current-context']) ?? '';
    for (const entry of entries(doc.clusters)) {
      const name = text(entry.name);
      if (name && !merged.clusters.has(name))
        merged.clusters.set(name, parseCluster(name, section(entry, 'cluster'), pathOf));
    }
    for (const entry of entries(doc.users)) {
      const name = text(entry.name);
      if (name && !merged.users.has(name))
        merged.users.set(name, parseUser(name, section(entry, 'user'), pathOf, baseDir));
    }
    for (const entry of entries(doc.contexts)) {
      const name = text(entry.name);
      const context = section(entry, 'context');
      if (name && !merged.contexts.has(name))
        merged.contexts.set(name, {
          name,
          cluster: text(context.cluster) ?? '',
          user: text(context.user) ?? '',
          namespace: text(context.namespace),
        });
    }
  }
  return merged;
}
