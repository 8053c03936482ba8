import { existsSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { freePort } from './cluster/ports.ts';
import { startProcess, stopProcesses } from './cluster/processes.ts';
import { waitUntil } from './cluster/wait.ts';
import { serverLifetime } from './server-lifetime.ts';

export interface RedisServer {
  /** redis://127.0.0.1:<port>: no password, loopback only. */
  url: string;
  port: number;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

export function redisServerPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.BINNACLE_REDIS_SERVER ?? '/usr/bin/redis-server';
  if (!existsSync(path)) {
    throw new Error(
      `Redis is missing: no ${path}. Install the Debian package redis-server (sh scripts/bootstrap.sh test does as root) ` +
        'or set BINNACLE_REDIS_SERVER to a redis-server binary.',
    );
  }
  return path;
}

/** One PING in RESP over a plain socket, so the harness needs no Redis client of its own. */
export function redisPing(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolvePing, rejectPing) => {
    const socket = new Socket();
    let reply = '';
    const done = (error?: Error) => {
      socket.destroy();
      if (error) rejectPing(error);
      else resolvePing(true);
    };
    socket.setTimeout(timeoutMs, () => done(new Error(`no PING reply within ${timeoutMs} ms`)));
    socket.once('error', done);
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      if (!reply.includes('\r\n')) return;
      done(reply.startsWith('+PONG') ? undefined : new Error(`PING answered ${reply.trim()}`));
    });
    socket.connect(port, '127.0.0.1', () => socket.write('*1\r\n$4\r\nPING\r\n'));
  });
}

/**
 * A throwaway Redis on a free 127.0.0.1 port without persistence, in its own process group and killed when this
 * process exits even if `stop` is never called. A missing binary fails loudly; nothing is skipped.
 */
export async function startRedis(): Promise<RedisServer> {
  const binary = redisServerPath();
  const server = await serverLifetime({
    prefix: 'binnacle-redis-',
    stopProcess: (proc) => stopProcesses([proc], 5000),
  });
  return server.starting(async () => {
    const port = await freePort();
    const args = [
      ...['--bind', '127.0.0.1', '--port', String(port), '--dir', server.dir],
      ...['--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      // Redis rewrites its command line by default, and the harness recognises its processes by argv[0].
      ...['--set-proc-title', 'no'],
    ];
    const proc = server.own(startProcess('redis-server', binary, args, join(server.dir, 'redis.log')));
    await waitUntil(`Redis on 127.0.0.1:${port}`, () => redisPing(port), {
      timeoutMs: 15_000,
      intervalMs: 25,
      process: proc,
    });
    return { url: `redis://127.0.0.1:${port}`, port, stop: server.stop };
  });
}
