import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { chown, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './cluster/ports.ts';
import { type ManagedProcess, startProcess, stopProcesses } from './cluster/processes.ts';
import { waitUntil } from './cluster/wait.ts';
import { postgresBinaries } from './postgres-binaries.ts';
import { serverLifetime } from './server-lifetime.ts';

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres: the superuser, trust auth, loopback only. */
  url: string;
  port: number;
  /** Temporary directory holding the cluster (`data/`, also the socket dir) and `postgres.log`. */
  dir: string;
  /** Creates a randomly named database and returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server and removes `dir`. */
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  log?: (line: string) => void;
}

const readyTimeoutMs = 30_000;
const superuser = 'postgres';
const execFileAsync = promisify(execFile);

/** Fresh database through an admin URL; works in test workers given the URL provided by the global setup. */
export async function createDatabase(adminUrl: string): Promise<string> {
  const name = `binnacle_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** initdb and postgres refuse to run as root; as root they run as the `postgres` user the Debian package creates. */
function postgresAccount(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      'PostgreSQL refuses to run as root and there is no "postgres" user to run it as ' +
        '(Debian: apt-get install postgresql creates it)',
    );
  }
}

function traversableByAll(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return false;
    if (dirname(current) === current) return true;
  }
}

function accepts(url: string): () => Promise<boolean> {
  return async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      await client.query('SELECT 1');
    } finally {
      await client.end();
    }
    return true;
  };
}

// SIGINT is PostgreSQL's fast shutdown: it disconnects clients, where SIGTERM would wait for them to leave.
const stopGroup = (proc: ManagedProcess) => stopProcesses([proc], 10_000, 'SIGINT');

/**
 * A throwaway PostgreSQL server on a free 127.0.0.1 port, tuned for tests (no fsync) and in its own process group,
 * killed when this process exits even if `stop` is never called. Missing binaries fail loudly; nothing is skipped.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const bin = postgresBinaries();
  const account = postgresAccount();
  // As root the server runs as `postgres`, which must be able to reach its directory (not so under /root).
  const base = account && !traversableByAll(tmpdir()) ? '/tmp' : tmpdir();
  const server = await serverLifetime({ prefix: 'binnacle-pg-', base, stopProcess: stopGroup });
  const { dir } = server;
  const asPostgres = (binary: string, args: string[]): [string, string[]] =>
    account ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');

  return server.starting(async () => {
    if (account) await chown(dir, account.uid, account.gid);
    const initdbArgs = ['-D', dataDir, `--username=${superuser}`, '--auth=trust', '--encoding=UTF8'];
    await execFileAsync(...asPostgres(bin.initdb, [...initdbArgs, '--locale=C', '--no-sync'])).catch(
      (error: { stdout?: string; stderr?: string; message: string }) => {
        const output = `${error.stdout ?? ''}${error.stderr ?? ''}`
          .trimEnd()
          .split('\n')
          .slice(-15)
          .join('\n');
        throw new Error(`PostgreSQL initdb failed (${bin.initdb}): ${error.message}\n${output}`);
      },
    );
    await writeFile(join(dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    log(`initdb done in ${((Date.now() - started) / 1000).toFixed(1)}s (${bin.dir})`);

    const port = await freePort();
    const settings: Record<string, string> = {
      listen_addresses: '127.0.0.1',
      port: String(port),
      unix_socket_directories: dataDir,
      max_connections: '200',
      shared_buffers: '32MB',
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
    };
    const args = [
      '-D',
      dataDir,
      ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
    ];
    const proc = server.own(startProcess('postgres', ...asPostgres(bin.postgres, args), logFile));
    const url = `postgres://${superuser}@127.0.0.1:${port}/postgres`;
    await waitUntil(`PostgreSQL on 127.0.0.1:${port}`, accepts(url), {
      timeoutMs: readyTimeoutMs,
      process: proc,
    });
    log(`PostgreSQL ready at ${url} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return { url, port, dir, createDatabase: () => createDatabase(url), stop: server.stop };
  });
}
