import { type KubeObject, linearRegex, quoteRegex } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { dockerHub, type RegistryCredentials } from '../../oci/registry-client.ts';
import type { ImagesContext } from './module.ts';

/** Where the credentials for an image come from: a pod's imagePullSecrets and/or secrets named outright. */
export interface CredentialSources {
  namespace?: string;
  pod?: string;
  pullSecrets?: string[];
}

interface DockerConfigEntry {
  auth?: string;
  username?: string;
  password?: string;
}

const hubHosts = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io', 'registry.hub.docker.com']);

/** A docker config key (`https://index.docker.io/v1/`, `registry.example:5000`, `*.example.com`) as a host. */
function keyHost(key: string): string {
  const host = key.replace(/^[a-z]+:\/\//i, '').split('/')[0] ?? '';
  return hubHosts.has(host.toLowerCase()) ? dockerHub : host.toLowerCase();
}

/** Whether a key matches the registry the way the kubelet matches them: exactly, or a `*.` glob per label. */
export function keyMatches(key: string, registry: string): boolean {
  const host = keyHost(key);
  const wanted = registry.toLowerCase();
  if (host === wanted) return true;
  if (!host.includes('*')) return false;
  // The key is a Secret's text: on a backtracking engine `*a*a*a…` would take polynomial time (ADR 0045).
  const pattern = linearRegex(`^${host.split('*').map(quoteRegex).join('[^.:]*')}$`);
  return pattern.test(wanted);
}

/** The registry entries of a `kubernetes.io/dockerconfigjson` or `kubernetes.io/dockercfg` Secret. */
export function dockerConfigEntries(secret: KubeObject): Record<string, DockerConfigEntry> {
  const data = (secret.data ?? {}) as Record<string, string>;
  const decode = (value: string | undefined) => {
    if (value === undefined) return undefined;
    try {
      return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  if (secret.type === 'kubernetes.io/dockerconfigjson') {
    const auths = decode(data['.dockerconfigjson'])?.auths;
    return (auths && typeof auths === 'object' ? auths : {}) as Record<string, DockerConfigEntry>;
  }
  if (secret.type === 'kubernetes.io/dockercfg')
    return (decode(data['.dockercfg']) ?? {}) as Record<string, DockerConfigEntry>;
  return {};
}

function credentialsOf(entry: DockerConfigEntry, source: string): RegistryCredentials | undefined {
  if (entry.username && entry.password) return { username: entry.username, password: entry.password, source };
  if (!entry.auth) return undefined;
  const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1), source };
}

const secretPath = (namespace: string, name: string) =>
  `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`;

/**
 * The credentials for `registry`: the first pull secret — the pod's imagePullSecrets in order, then the ones
 * named — with an entry for it. Pod and secrets are read as the caller, so a caller who may not read them gets
 * the API server's 403, never the agent's view. A pod's secret that does not exist is skipped (the kubelet
 * does the same); one named outright is a 404. Undefined: pull anonymously.
 */
export async function registryCredentials(
  ctx: ImagesContext,
  registry: string,
  sources: CredentialSources,
  as: Impersonation | undefined,
): Promise<RegistryCredentials | undefined> {
  const { namespace, pod } = sources;
  if ((pod || sources.pullSecrets?.length) && !namespace)
    throw badRequest('query parameter "namespace" is required with "pod" or "pullSecrets"');
  if (!namespace) return undefined;
  const fromPod: string[] = [];
  if (pod) {
    const object = await ctx.cluster.client.request<KubeObject>({
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}`,
      as,
    });
    const refs =
      (object.spec as { imagePullSecrets?: { name?: string }[] } | undefined)?.imagePullSecrets ?? [];
    fromPod.push(...refs.flatMap((ref) => (ref.name ? [ref.name] : [])));
  }
  const names = [
    ...fromPod.map((name) => ({ name, optional: true })),
    ...(sources.pullSecrets ?? []).map((name) => ({ name, optional: false })),
  ];
  for (const { name, optional } of names) {
    let secret: KubeObject;
    try {
      secret = await ctx.cluster.client.request<KubeObject>({ path: secretPath(namespace, name), as });
    } catch (error) {
      if (optional && error instanceof AppError && error.code === 'not_found') continue;
      throw error;
    }
    for (const [key, entry] of Object.entries(dockerConfigEntries(secret))) {
      if (!keyMatches(key, registry)) continue;
      const credentials = credentialsOf(entry, `${namespace}/${name}`);
      if (credentials) return credentials;
    }
  }
  return undefined;
}
