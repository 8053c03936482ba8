import { existsSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';
const authRefreshMs = 10_000;

export type ConfigSource = 'kubeconfig' | 'in-cluster';
export type AuthMethod = 'client-certificate' | 'token' | 'exec' | 'auth-provider' | 'basic' | 'none';

/** Where the agent's own credentials to one cluster come from, and how to present them. */
export interface ClusterTarget {
  source: ConfigSource;
  /** The kubeconfig files read (empty in-cluster). */
  kubeconfigFiles: string[];
  contextName: string;
  clusterName: string;
  /** Namespace of the kubeconfig context (or the pod's namespace in-cluster), if any. */
  defaultNamespace?: string;
  server: URL;
  authMethod: AuthMethod;
  tls: { ca?: Buffer; cert?: Buffer; key?: Buffer; rejectUnauthorized: boolean; servername?: string };
  /** Headers that authenticate the agent (Authorization, or kubeconfig impersonation), refreshed as tokens rotate. */
  authHeaders(): Promise<Record<string, string>>;
  /** All contexts of the kubeconfig, for the multi-context API. */
  contexts: string[];
}

export class KubeconfigError extends Error {}

export interface TargetOptions {
  kubeconfig?: string;
  context?: string;
}

function kubeconfigFiles(explicit?: string): string[] {
  const list = explicit ?? process.env.KUBECONFIG;
  if (list) return list.split(':').filter(Boolean);
  const home = join(homedir(), '.kube', 'config');
  return existsSync(home) ? [home] : [];
}

/** True when the agent would find a cluster without being told: a kubeconfig, or a service account. */
export function clusterConfigured(explicitKubeconfig?: string): boolean {
  return kubeconfigFiles(explicitKubeconfig ?? process.env.BINNACLE_KUBECONFIG).length > 0 || inCluster();
}

export function inCluster(): boolean {
  return Boolean(process.env.KUBERNETES_SERVICE_HOST) && existsSync(join(serviceAccountDir, 'token'));
}

function authMethodOf(kc: KubeConfig): AuthMethod {
  const user = kc.getCurrentUser();
  if (!user) return 'none';
  if (user.exec) return 'exec';
  if (user.authProvider) return user.authProvider.name === 'tokenFile' ? 'token' : 'auth-provider';
  if (user.token) return 'token';
  if (user.certData || user.certFile) return 'client-certificate';
  if (user.username) return 'basic';
  return 'none';
}

/**
 * Resolves the cluster the agent talks to: `--kubeconfig` (or KUBECONFIG, a colon-separated list, or
 * ~/.kube/config) with `--context`, else the in-cluster service account. Throws KubeconfigError with a message a
 * person can act on when none is configured or the context is unknown.
 */
export async function resolveTarget(options: TargetOptions = {}): Promise<ClusterTarget> {
  const files = kubeconfigFiles(options.kubeconfig);
  const kc = new KubeConfig();
  let source: ConfigSource;
  if (files.length > 0) {
    for (const file of files) {
      if (!existsSync(file)) throw new KubeconfigError(`kubeconfig ${file} does not exist`);
    }
    try {
      if (files.length === 1) kc.loadFromFile(files[0] as string);
      else kc.loadFromDefault({}, false);
    } catch (error) {
      throw new KubeconfigError(`kubeconfig ${files.join(':')} cannot be read: ${(error as Error).message}`);
    }
    source = 'kubeconfig';
  } else if (inCluster()) {
    kc.loadFromCluster();
    source = 'in-cluster';
  } else {
    throw new KubeconfigError(
      'no cluster configured: pass --kubeconfig, set KUBECONFIG, create ~/.kube/config, or run inside a cluster',
    );
  }
  const contexts = kc.getContexts().map((context) => context.name);
  if (options.context) {
    if (!contexts.includes(options.context)) {
      throw new KubeconfigError(
        `context "${options.context}" not found; the kubeconfig has: ${contexts.join(', ') || 'none'}`,
      );
    }
    kc.setCurrentContext(options.context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new KubeconfigError(`context "${kc.getCurrentContext()}" names no cluster`);
  const context = kc.getContextObject(kc.getCurrentContext());

  const probe: RequestOptions = {};
  await kc.applyToHTTPSOptions(probe);
  const tls = {
    ca: probe.ca as Buffer | undefined,
    cert: probe.cert as Buffer | undefined,
    key: probe.key as Buffer | undefined,
    rejectUnauthorized: probe.rejectUnauthorized !== false,
    servername: probe.servername ?? undefined,
  };

  let cached: { headers: Record<string, string>; at: number } | undefined;
  const authHeaders = async () => {
    if (cached && Date.now() - cached.at < authRefreshMs) return cached.headers;
    const opts: RequestOptions = {};
    await kc.applyToHTTPSOptions(opts);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(opts.headers ?? {})) {
      if (typeof value === 'string') headers[name] = value;
    }
    if (opts.auth) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    cached = { headers, at: Date.now() };
    return headers;
  };

  return {
    source,
    kubeconfigFiles: files,
    contextName: kc.getCurrentContext(),
    clusterName: cluster.name,
    defaultNamespace: context?.namespace,
    server: new URL(cluster.server),
    authMethod: authMethodOf(kc),
    tls,
    authHeaders,
    contexts,
  };
}
