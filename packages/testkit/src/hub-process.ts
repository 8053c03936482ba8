import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from './cluster/paths.ts';
import { freePort } from './cluster/ports.ts';
import { waitUntil } from './cluster/wait.ts';
import { type HaproxyServer, startHaproxy } from './haproxy.ts';
import { type PostgresServer, startPostgres } from './postgres.ts';
import { type RedisServer, startRedis } from './redis.ts';

export const hubProcessBreakGlass = { email: 'admin@example.com', password: 'bench horse battery staple' };

export interface HubProcessOptions {
  /** Default: a free port. A hub started again on the same port and data dir is the same hub, restarted. */
  port?: number;
  /** Default: a fresh temporary directory, removed when the hub stops. A given one is kept. */
  dataDir?: string;
  /** Node options before the script (e.g. `--expose-gc`). */
  nodeArgs?: string[];
  /**
   * More settings for the hub (e.g. `BINNACLE_OIDC_ISSUER`; for a replica `BINNACLE_DATABASE_URL`,
   * `BINNACLE_REDIS_URL`, `BINNACLE_REPLICA_URL`), on top of the break-glass admin and secret key, which they
   * may replace. None comes from the parent's environment.
   */
  env?: Record<string, string>;
  /**
   * Default http://localhost:<port>. Replicas behind a load balancer all take its URL: the session cookie, the
   * Origin writes must carry and the links the hub writes follow it.
   */
  publicUrl?: string;
}

export interface HubProcess {
  /** Where this process reaches the hub (loopback). */
  url: string;
  /** The hub's public URL: its same-origin checks and cookie name follow it. */
  publicUrl: string;
  pid: number;
  port: number;
  /** Lines the hub logged (warnings and worse, plus its start banner). */
  logTail(): string;
  /** SIGTERM, then the time it took to exit (SIGKILL after 15 s). */
  stop(): Promise<{ exitMs: number; code: number | null; killed: boolean }>;
  /** SIGKILL: the hub gets no chance to close anything (a crash, an OOM kill). */
  kill(): Promise<void>;
}

function awaitListening(child: ChildProcess, url: string, tail: () => string): Promise<void> {
  return waitUntil(
    `the hub at ${url}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`the hub exited with ${child.exitCode}:\n${tail()}`);
      const res = await fetch(`${url}/api/health`);
      await res.arrayBuffer();
      return res.status === 200;
    },
    { timeoutMs: 30_000, intervalMs: 50 },
  );
}

/**
 * `binnacle hub` as its own process, on SQLite in a data dir (PostgreSQL and Redis through `env` for a
 * replica), on 127.0.0.1 with an http://localhost public URL unless given (cookie `binnacle_session`; writes
 * need that Origin), with the break-glass admin `hubProcessBreakGlass`. Benchmarks measure it alone; tests kill
 * it for real.
 */
export async function spawnHub(options: HubProcessOptions = {}): Promise<HubProcess> {
  const port = options.port ?? (await freePort());
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'binnacle-hub-process-')));
  const publicUrl = new URL(options.publicUrl ?? `http://localhost:${port}`).origin;
  const url = `http://127.0.0.1:${port}`;
  // Settings of the shell running the tests must not leak into the hub.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('BINNACLE_')),
  );
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      resolve(repoRoot, 'packages/cli/src/binnacle.ts'),
      'hub',
      '--port',
      String(port),
      '--listen-address',
      '127.0.0.1',
      '--data-dir',
      dataDir,
      '--public-url',
      publicUrl,
    ],
    {
      env: {
        ...env,
        BINNACLE_BREAK_GLASS_EMAIL: hubProcessBreakGlass.email,
        BINNACLE_BREAK_GLASS_PASSWORD: hubProcessBreakGlass.password,
        BINNACLE_SECRET_KEY: 'b'.repeat(64),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const cleanUp = async () => {
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
  };
  const stop = async () => {
    const started = performance.now();
    let killed = false;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const forced = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, 15_000);
    const code = await exited;
    clearTimeout(forced);
    await cleanUp();
    return { exitMs: Math.round(performance.now() - started), code, killed };
  };
  try {
    await awaitListening(child, url, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    publicUrl,
    pid: child.pid as number,
    port,
    logTail: () => log,
    stop,
    async kill() {
      child.kill('SIGKILL');
      await exited;
      await cleanUp();
    },
  };
}

/** The break-glass admin signed in over HTTP: the cookie (`name=value`) and the Origin the hub wants on writes. */
export interface HubOwner {
  cookie: string;
  origin: string;
}

/**
 * Signs the break-glass admin (`hubProcessBreakGlass`) in as a browser would, reaching the hub at `url` while
 * it serves `publicUrl`: `binnacle_session` on an http://localhost public URL, `__Host-binnacle_session` on https.
 */
export async function signInOwner(hub: { url: string; publicUrl: string }): Promise<HubOwner> {
  const origin = new URL(hub.publicUrl).origin;
  const answer = await fetch(`${hub.url}/api/auth/break-glass/login`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify(hubProcessBreakGlass),
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`break-glass sign-in answered ${answer.status}: ${text}`);
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] as string)
    .find((c) => /^(__Host-)?binnacle_session=/.test(c));
  if (!cookie) throw new Error(`break-glass sign-in set no session cookie: ${text}`);
  return { cookie, origin };
}

/** Registers a cluster through the API, as an owner does, for its `bnc_` agent token. */
export async function createCluster(
  hub: { url: string },
  owner: HubOwner,
  name: string,
): Promise<{ id: string; token: string }> {
  const answer = await fetch(`${hub.url}/api/clusters`, {
    method: 'POST',
    headers: { ...owner, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const text = await answer.text();
  if (answer.status !== 201) throw new Error(`creating cluster ${name} answered ${answer.status}: ${text}`);
  return JSON.parse(text) as { id: string; token: string };
}

export interface HubReplica {
  /** hub-0, hub-1 …: the replica's server name in HAProxy too. */
  name: string;
  hub: HubProcess;
  /** Where the other replicas relay to it: what Redis's `bnc:tunnel:<cluster>` says while it holds a tunnel. */
  replicaUrl: string;
}

export interface HubReplicaSet {
  replicas: HubReplica[];
  /** HAProxy in front of them: every replica's public URL. */
  balancer: HaproxyServer;
  postgres: PostgresServer;
  redis: RedisServer;
  /** Stops every replica still running, then HAProxy, Redis and PostgreSQL. */
  stop(): Promise<void>;
}

/**
 * The replicas' public URL is HAProxy's and HAProxy needs their ports: it starts in front of a placeholder that
 * passes its health check on the first replica's port until that replica takes the port over.
 */
async function balancerBefore(ports: number[]): Promise<HaproxyServer> {
  const placeholder = createServer((_request, response) => response.writeHead(200).end('{}'));
  placeholder.listen(ports[0], '127.0.0.1');
  await once(placeholder, 'listening');
  try {
    return await startHaproxy({
      backends: ports.map((port, i) => ({ name: `hub-${i}`, url: `http://127.0.0.1:${port}` })),
    });
  } finally {
    placeholder.closeAllConnections();
    await new Promise((done) => placeholder.close(done));
  }
}

/**
 * `count` hub processes run as docs/scaling.md says: one PostgreSQL database, one Redis, one shared secret key,
 * each replica with its own replica port, behind HAProxy (round robin) whose URL they all serve as public URL.
 */
export async function spawnHubReplicas(
  options: { count?: number; nodeArgs?: string[] } = {},
): Promise<HubReplicaSet> {
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const replicas: HubReplica[] = [];
  let balancer: HaproxyServer | undefined;
  const stop = async () => {
    await Promise.all(replicas.map((replica) => replica.hub.stop()));
    await Promise.all([balancer?.stop(), redis.stop(), postgres.stop()]);
  };
  try {
    const databaseUrl = await postgres.createDatabase();
    const ports = await Promise.all(Array.from({ length: options.count ?? 3 }, () => freePort()));
    const lb = await balancerBefore(ports);
    balancer = lb;
    // Sessions, sealed refresh tokens and peer tokens: the same key on every replica.
    const secretKey = randomBytes(32).toString('hex');
    const start = async (port: number, i: number) => {
      const replicaUrl = `http://127.0.0.1:${await freePort()}`;
      const env = {
        BINNACLE_DATABASE_URL: databaseUrl,
        BINNACLE_REDIS_URL: redis.url,
        BINNACLE_REPLICA_URL: replicaUrl,
        BINNACLE_SECRET_KEY: secretKey,
      };
      const hub = await spawnHub({ port, publicUrl: lb.url, env, nodeArgs: options.nodeArgs });
      replicas.push({ name: `hub-${i}`, hub, replicaUrl });
    };
    // The first replica migrates the empty database alone.
    await start(ports[0] as number, 0);
    await Promise.all(ports.slice(1).map((port, i) => start(port, i + 1)));
    replicas.sort((a, b) => a.name.localeCompare(b.name));
    return { replicas, balancer: lb, postgres, redis, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
