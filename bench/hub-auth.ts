import { signInOwner, startPostgres } from '@binnacle/testkit';
import { Pool } from 'undici';
import { type LoadFigures, type LoadOptions, load } from './http-load.ts';
import { publicUrl, withHubInProcess } from './hub-in-process.ts';
import { send } from './hub-owner.ts';
import { machine } from './machine.ts';
import type { BenchResult } from './run.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const numberArg = (args: string[], name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);

type Figures = { health: LoadFigures; cookie: LoadFigures; pat: LoadFigures };
type Plan = Omit<LoadOptions, 'path' | 'headers'>;

/** A session cookie and a PAT obtained the way a person gets them: break-glass sign-in, then minting over HTTP. */
async function credentials(pool: Pool, url: string): Promise<{ cookie: string; pat: string }> {
  // The hub's same-origin checks want its public origin, whatever address the request reaches it on.
  const { cookie, origin } = await signInOwner({ url, publicUrl });
  const minted = await send(pool, 'POST', '/api/pats', { origin, cookie }, { name: 'bench' });
  if (minted.status !== 201) throw new Error(`minting a PAT answered ${minted.status}: ${minted.text}`);
  const pat = (JSON.parse(minted.text) as { token: string }).token;

  // Each load case must exercise the credential it is named after.
  for (const [headers, via] of [
    [{ cookie }, 'session'],
    [{ authorization: `Bearer ${pat}` }, 'pat'],
  ] as const) {
    const account = await send(pool, 'GET', '/api/account', headers);
    const seen = account.status === 200 && (JSON.parse(account.text) as { credential: { via: string } });
    if (!seen || seen.credential.via !== via)
      throw new Error(`GET /api/account as ${via} answered ${account.status}: ${account.text}`);
  }
  return { cookie, pat };
}

/** One real hub on 127.0.0.1 (SQLite, or the given PostgreSQL database), loaded thrice. */
function measureHub(databaseUrl: string | undefined, plan: Plan): Promise<Figures & { warnings: number }> {
  return withHubInProcess(databaseUrl, async (_hub, url, warnings) => {
    const pool = new Pool(url, { connections: plan.concurrency, pipelining: 1 });
    try {
      const { cookie, pat } = await credentials(pool, url);
      const run = async (label: string, path: string, headers?: Record<string, string>) => {
        const figures = await load(pool, { ...plan, path, headers });
        log(`  ${label}: ${figures.perSecond} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms`);
        return figures;
      };
      return {
        health: await run('health (no auth)', '/api/health'),
        cookie: await run('cookie', '/api/account', { cookie }),
        pat: await run('PAT', '/api/account', { authorization: `Bearer ${pat}` }),
        warnings: warnings(),
      };
    } finally {
      await pool.close();
    }
  });
}

async function onPostgres<T>(body: (databaseUrl: string) => Promise<T>): Promise<T> {
  const server = await startPostgres({ log });
  try {
    return await body(await server.createDatabase());
  } finally {
    await server.stop();
  }
}

/**
 * Authenticated requests per second on the hub: GET /api/account with a session cookie and with a PAT, next
 * to the unauthenticated GET /api/health, on SQLite and on PostgreSQL. Load and hub share this process.
 */
export async function hubAuth(args: string[]): Promise<BenchResult> {
  const plan: Plan = {
    concurrency: numberArg(args, 'concurrency', 32),
    warmupMs: numberArg(args, 'warmup', 1) * 1000,
    durationMs: numberArg(args, 'seconds', 5) * 1000,
    maxRequests: numberArg(args, 'max-requests', 500_000),
  };
  log('SQLite');
  const sqlite = await measureHub(undefined, plan);
  log('PostgreSQL');
  const postgres = await onPostgres((url) => measureHub(url, plan));
  const cell = (f: LoadFigures) => `${f.perSecond} req/s (p50 ${f.p50Ms} / p99 ${f.p99Ms} ms)`;
  const line = (label: string, f: Figures) =>
    `${label}: health ${cell(f.health)}, cookie ${cell(f.cookie)}, PAT ${cell(f.pat)}`;
  return {
    name: 'hub-auth',
    summary:
      `${plan.concurrency} keep-alive connections, ${plan.durationMs / 1000} s each, GET /api/account; ` +
      `${line('SQLite', sqlite)}; ${line('PostgreSQL', postgres)}`,
    data: {
      machine: machine(),
      plan,
      sqlite,
      postgres,
    },
  };
}
