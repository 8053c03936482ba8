import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { join } from 'node:path';
import { freePort } from './cluster/ports.ts';
import { startProcess, stopProcesses } from './cluster/processes.ts';
import { waitUntil } from './cluster/wait.ts';
import { serverLifetime } from './server-lifetime.ts';

export interface HaproxyBackend {
  /** Server name in the `hubs` backend (letters, digits, `.`, `_`, `-`); it shows in the log. */
  name: string;
  /** http://127.0.0.1:<port> of one replica. */
  url: string;
}

export interface HaproxyServer {
  /** http://127.0.0.1:<port> of the frontend. */
  url: string;
  port: number;
  stop(): Promise<void>;
  /** The last lines HAProxy wrote: alerts, servers marked up and down, abnormal requests. */
  logTail(lines?: number): string;
}

export function haproxyPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.BINNACLE_HAPROXY ?? '/usr/sbin/haproxy';
  if (!existsSync(path)) {
    throw new Error(
      `HAProxy is missing: no ${path}. Install the Debian package haproxy (sh scripts/bootstrap.sh test does as root) ` +
        'or set BINNACLE_HAPROXY to a haproxy binary.',
    );
  }
  return path;
}

function serverLine(backend: HaproxyBackend): string {
  if (!/^[A-Za-z0-9._-]+$/.test(backend.name)) {
    throw new Error(`HAProxy backend name "${backend.name}": use letters, digits, ".", "_" and "-" only`);
  }
  const url = new URL(backend.url);
  if (url.protocol !== 'http:' || !url.port) {
    throw new Error(`HAProxy backend ${backend.name}: ${backend.url} must be http://<host>:<port>`);
  }
  // No on-marked-down shutdown-sessions: a tunnel or an exec session dies with its own replica, not with a check.
  return `  server ${backend.name} ${url.hostname}:${url.port} check inter 500ms fall 3 rise 1`;
}

/**
 * HAProxy needs two descriptors per connection and refuses to start when the hard limit cannot hold maxconn, so
 * the 20 000 connections are capped by what this machine allows.
 */
export function connectionLimit(): number {
  const hard = execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim();
  return hard === 'unlimited' ? 20_000 : Math.min(20_000, Math.floor((Number(hard) - 100) / 2));
}

/** The configuration of a load balancer on 127.0.0.1:<port> in front of the replicas, round robin. */
export function haproxyConfig(
  port: number,
  backends: readonly HaproxyBackend[],
  maxconn = connectionLimit(),
): string {
  if (backends.length === 0) throw new Error('HAProxy needs at least one backend');
  return [
    'global',
    `  maxconn ${maxconn}`,
    '  log stderr format raw daemon',
    'defaults',
    '  mode http',
    '  log global',
    '  option httplog',
    '  option dontlog-normal',
    '  option forwardfor',
    `  maxconn ${maxconn}`,
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // A replica busy with a redial storm answers its health check slowly, not never: only silence marks it down.
    '  timeout check 2s',
    // Agents' tunnels and exec sessions are WebSockets that stay open far longer than any request.
    '  timeout tunnel 1h',
    // A request sent to a replica that just died is retried on another before the checks notice.
    '  option redispatch',
    '  retries 2',
    // A replica killed mid-request answers nothing: a read it held goes to another; writes are never replayed.
    '  retry-on conn-failure empty-response',
    'frontend hub',
    `  bind 127.0.0.1:${port}`,
    '  default_backend hubs',
    'backend hubs',
    '  balance roundrobin',
    '  http-request disable-l7-retry if !METH_GET',
    '  option httpchk GET /api/health',
    '  http-check expect status 200',
    ...backends.map(serverLine),
    '',
  ].join('\n');
}

function healthStatus(url: string): Promise<number> {
  return new Promise((resolveStatus, rejectStatus) => {
    const request = get(`${url}/api/health`, { agent: false, timeout: 1000 }, (response) => {
      response.resume();
      resolveStatus(response.statusCode ?? 0);
    });
    request.once('timeout', () => request.destroy(new Error('no answer within 1 s')));
    request.once('error', rejectStatus);
  });
}

/**
 * Debian's HAProxy in the foreground on a free 127.0.0.1 port, killed when this process exits even if `stop` is
 * never called. Resolves once a request through it reaches a healthy backend. A missing binary fails loudly.
 */
export async function startHaproxy(options: { backends: readonly HaproxyBackend[] }): Promise<HaproxyServer> {
  const binary = haproxyPath();
  const server = await serverLifetime({
    prefix: 'binnacle-haproxy-',
    // SIGTERM is HAProxy's hard stop; SIGUSR1 would wait for every open tunnel to end.
    stopProcess: (proc) => stopProcesses([proc], 5000),
  });
  const logFile = join(server.dir, 'haproxy.log');
  const logTail = (lines = 30) => {
    try {
      return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  };
  return server.starting(async () => {
    const port = await freePort();
    const configFile = join(server.dir, 'haproxy.cfg');
    await writeFile(configFile, haproxyConfig(port, options.backends));
    const proc = server.own(startProcess('haproxy', binary, ['-db', '-f', configFile], logFile));
    const url = `http://127.0.0.1:${port}`;
    await waitUntil(
      `HAProxy on 127.0.0.1:${port} with a healthy backend`,
      async () => (await healthStatus(url)) === 200,
      { timeoutMs: 15_000, intervalMs: 100, process: proc },
    );
    return { url, port, stop: server.stop, logTail };
  });
}
