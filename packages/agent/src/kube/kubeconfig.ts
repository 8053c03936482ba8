import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { urlHost } from '@binnacle/common';
import { type AuthMethod, type Credentials, credentialsFor } from './credentials.ts';
import {
  type Kubeconfig,
  type KubeconfigCluster,
  type KubeconfigUser,
  readKubeconfig,
} from './kubeconfig-file.ts';

const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

export type ConfigSource = 'kubeconfig' | 'in-cluster';

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

function inClusterConfig(): Kubeconfig {
  const host = process.env.KUBERNETES_SERVICE_HOST ?? '';
  const port = process.env.KUBERNETES_SERVICE_PORT ?? '443';
  const namespaceFile = join(serviceAccountDir, 'namespace');
  const cluster: KubeconfigCluster = {
    name: 'inCluster',
    server: `https://${urlHost(host)}:${port}`,
    certificateAuthority: join(serviceAccountDir, 'ca.crt'),
    insecureSkipTlsVerify: false,
  };
  const user: KubeconfigUser = { name: 'inClusterUser', tokenFile: join(serviceAccountDir, 'token') };
  return {
    currentContext: 'inClusterContext',
    clusters: new Map([[cluster.name, cluster]]),
    users: new Map([[user.name, user]]),
    contexts: new Map([
      [
        'inClusterContext',
        {
          name: 'inClusterContext',
          cluster: cluster.name,
          user: user.name,
          namespace: existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined,
        },
      ],
    ]),
  };
}

/**
 * Resolves the cluster the agent talks to: `--kubeconfig` (or KUBECONFIG, a colon-separated list, or
 * ~/.kube/config) with `--context`, else the in-cluster service account. Throws KubeconfigError with a message a
 * person can act on when none is configured or the context is unknown.
 */
export async function resolveTarget(options: TargetOptions = {}): Promise<ClusterTarget> {
  const files = kubeconfigFiles(options.kubeconfig);
  let config: Kubeconfig;
  let source: ConfigSource;
  if (files.length > 0) {
    for (const file of files) {
      if (!existsSync(file)) throw new KubeconfigError(`kubeconfig ${file} does not exist`);
    }
    try {
      config = readKubeconfig(files);
    } catch (error) {
      throw new KubeconfigError(`kubeconfig ${files.join(':')} cannot be read: ${(error as Error).message}`);
    }
    source = 'kubeconfig';
  } else if (inCluster()) {
    config = inClusterConfig();
    source = 'in-cluster';
  } else {
    throw new KubeconfigError(
      'no cluster configured: pass --kubeconfig, set KUBECONFIG, create ~/.kube/config, or run inside a cluster',
    );
  }
  const contexts = [...config.contexts.keys()];
  const contextName = options.context ?? config.currentContext;
  const context = config.contexts.get(contextName);
  if (!context) {
    throw new KubeconfigError(
      options.context
        ? `context "${options.context}" not found; the kubeconfig has: ${contexts.join(', ') || 'none'}`
        : `the kubeconfig sets no current context (it has: ${contexts.join(', ') || 'none'}); pass --context`,
    );
  }
  const cluster = config.clusters.get(context.cluster);
  if (!cluster) throw new KubeconfigError(`context "${contextName}" names no cluster`);
  let credentials: Credentials;
  let ca: Buffer | undefined;
  try {
    credentials = await credentialsFor(config.users.get(context.user), cluster);
    ca = cluster.certificateAuthorityData
      ? Buffer.from(cluster.certificateAuthorityData, 'base64')
      : cluster.certificateAuthority
        ? readFileSync(cluster.certificateAuthority)
        : undefined;
  } catch (error) {
    throw new KubeconfigError(`context "${contextName}": ${(error as Error).message}`);
  }
  return {
    source,
    kubeconfigFiles: files,
    contextName,
    clusterName: cluster.name,
    defaultNamespace: context.namespace,
    server: new URL(cluster.server),
    authMethod: credentials.method,
    tls: {
      ca,
      cert: credentials.cert,
      key: credentials.key,
      rejectUnauthorized: !cluster.insecureSkipTlsVerify,
      servername: cluster.tlsServerName,
    },
    authHeaders: credentials.headers,
    contexts,
  };
}
