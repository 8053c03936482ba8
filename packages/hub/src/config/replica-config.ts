import { urlHost } from '@binnacle/common';
import { UsageError } from '@binnacle/common/server';
import type { HubConfig } from './hub-config.ts';

/** Where Redis is, for log lines: the URL without its credentials. */
export function redisLocation(redisUrl: string): string {
  const url = new URL(redisUrl);
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

const wildcardAddresses = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Several replicas (redisUrl set) share one PostgreSQL and one key, and reach each other directly; returns the
 * replica URL. Messages never quote the Redis URL: it may hold a password.
 */
export function validateReplicas(config: HubConfig, secretKey: string | undefined): string | undefined {
  if (!config.redisUrl) {
    if (config.replicaUrl)
      throw new UsageError(
        'replicaUrl: only used with redisUrl (several replicas); set redisUrl or leave it out',
      );
    return undefined;
  }
  let redis: URL | undefined;
  try {
    redis = new URL(config.redisUrl);
  } catch {
    redis = undefined;
  }
  if (
    !redis ||
    !['redis:', 'rediss:'].includes(redis.protocol) ||
    !redis.hostname ||
    !/^\/\d*$|^$/.test(redis.pathname)
  ) {
    throw new UsageError(
      'redisUrl: not a Redis URL; write redis://[:password@]host[:port][/db] or rediss://…',
    );
  }
  if (!config.databaseUrl) {
    throw new UsageError(
      'redisUrl: several hub replicas need one shared PostgreSQL: set databaseUrl (the embedded SQLite serves one hub only)',
    );
  }
  if (!secretKey) {
    throw new UsageError(
      'redisUrl: several hub replicas need the same secretKey: set BINNACLE_SECRET_KEY or secretKeyFile (a key generated in each data dir differs per replica)',
    );
  }
  if (config.replicaUrl) return replicaOrigin(config.replicaUrl, config.port);
  if (wildcardAddresses.has(config.listenAddress)) {
    throw new UsageError(
      `replicaUrl: required with redisUrl when listenAddress is ${config.listenAddress}: set --replica-url (BINNACLE_REPLICA_URL) to the URL the other replicas reach this one at, e.g. http://<pod IP>:${config.port + 1}`,
    );
  }
  if (config.port === 65535)
    throw new UsageError(
      'replicaUrl: port 65535 leaves no port after it for the replica port: set --replica-url',
    );
  return `http://${urlHost(config.listenAddress)}:${config.port + 1}`;
}

/**
 * Kubernetes expands `http://$(POD_IP):9381` without brackets, so on an IPv6 pod network the URL reads
 * `http://fd00::7:9381`: the last colon then separates the port, and the address gets its brackets.
 */
function parseReplicaUrl(replicaUrl: string): URL | undefined {
  const bareIpv6 = /^http:\/\/([0-9a-f]*:[0-9a-f:.]*):(\d+)\/?$/i.exec(replicaUrl);
  const candidate = bareIpv6 ? `http://${urlHost(bareIpv6[1] ?? '')}:${bareIpv6[2]}` : replicaUrl;
  return URL.canParse(candidate) ? new URL(candidate) : undefined;
}

/** The replica port is plain HTTP/2 on a listener of its own, so the URL names that port and nothing more. */
function replicaOrigin(replicaUrl: string, hubPort: number): string {
  const url = parseReplicaUrl(replicaUrl);
  if (url?.protocol !== 'http:' || !url.port || url.pathname !== '/' || url.search) {
    throw new UsageError(
      `replicaUrl: ${replicaUrl} must be http://host:port with an explicit port and no path (the replica port speaks plain HTTP/2)`,
    );
  }
  if (Number(url.port) === hubPort) {
    throw new UsageError(
      `replicaUrl: port ${hubPort} is the hub's own port; the replica port must be another (e.g. ${hubPort + 1})`,
    );
  }
  return url.origin;
}
