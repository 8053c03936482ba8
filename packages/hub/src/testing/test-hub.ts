import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverLogger } from '@binnacle/common/server';
import { createDatabase, signInAtIdp, type TestIdp } from '@binnacle/testkit';
import { inject } from 'vitest';
import { type HubConfig, hubDefaults } from '../config/hub-config.ts';
import { validateHubConfig } from '../config/validate-hub-config.ts';
import { addMember, createOrg, upsertUser } from '../db/directory.ts';
import { createHub, type Hub } from '../hub.ts';
import { ManualClock } from '../security/clock.ts';
import type { Role } from '../security/roles.ts';

export const testBreakGlass = { email: 'admin@example.com', password: 'correct horse battery staple' };
const testPublicUrl = 'https://hub.binnacle.test';

/**
 * The IdP of the users `addUser` makes, as a hub setting: sign-in through it is configured, so the hub offers
 * what needs it (invitations, ADR 0069), but those users get their sessions from the directory and no request
 * is ever sent there. Tests that sign in through a real IdP use `startOidcTestHub`.
 */
export const addedUsersIdp = {
  oidcIssuer: 'https://idp.binnacle.test',
  oidcClientId: 'binnacle-hub',
  oidcClientSecret: 'never-sent',
} satisfies Partial<HubConfig>;

export interface TestHubOptions {
  config?: Partial<HubConfig>;
  clock?: ManualClock;
  /** Reuse a database (e.g. to restart a hub with another setting); a fresh one by default. */
  database?: { dataDir: string; databaseUrl?: string };
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | number | string[] | undefined>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/** How a test request authenticates: a session cookie value, a PAT, or nothing. */
export type Credential = { cookie: string } | { pat: string } | undefined;

export interface TestHub {
  hub: Hub;
  clock: ManualClock;
  /** Every log line the hub wrote (pino JSON), request logging on. */
  logs: string[];
  database: { dataDir: string; databaseUrl?: string };
  cookieName: string;
  origin: string;
  /** A request through the hub's full HTTP pipeline; cookie writes carry the hub's Origin unless `origin` says otherwise. */
  request(
    method: string,
    path: string,
    options?: {
      as?: Credential;
      body?: unknown;
      origin?: string | null;
      headers?: Record<string, string>;
      /** The socket's peer (127.0.0.1 by default): a proxy in front of the hub, or a client calling directly. */
      remoteAddress?: string;
    },
  ): Promise<HttpAnswer>;
  /** Signs the break-glass admin in, with the test password unless another is given (a rotated one). */
  signInBreakGlass(password?: string): Promise<{ cookie: string; orgId: string; userId: string }>;
  /** Signs `user` in through the IdP as a browser would: hub login redirect, the IdP's forms, the hub callback. */
  signInOidc(
    idp: TestIdp,
    user: string,
    returnTo?: string,
  ): Promise<{ cookie: string; callback: HttpAnswer }>;
  /** A user with a role in an organization and a signed-in session, made through the hub's own directory and session store. */
  addUser(email: string, role: Role, orgId: string): Promise<{ userId: string; cookie: string }>;
  createOrg(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The database the hub suite runs on: SQLite in a temporary data dir, or — in the `hub-postgres` project — a
 * fresh database on the PostgreSQL server its global setup started.
 */
export async function freshDatabase(): Promise<{ dataDir: string; databaseUrl?: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'binnacle-hub-'));
  if (process.env.BINNACLE_TEST_DATABASE !== 'postgres') return { dataDir };
  return { dataDir, databaseUrl: await createDatabase(inject('binnaclePostgres').url) };
}

export async function startTestHub(options: TestHubOptions = {}): Promise<TestHub> {
  const clock = options.clock ?? new ManualClock();
  const database = options.database ?? (await freshDatabase());
  const logs: string[] = [];
  const config = validateHubConfig(
    {
      ...(hubDefaults() as HubConfig),
      publicUrl: testPublicUrl,
      port: 0,
      breakGlassEmail: testBreakGlass.email,
      breakGlassPassword: testBreakGlass.password,
      secretKey: 'a'.repeat(64),
      debugRequests: true,
      ...database,
      ...options.config,
    },
    {},
  );
  const hub = await createHub(config, {
    clock,
    log: serverLogger('info', { write: (line: string) => void logs.push(line) }),
  });
  const cookieName = '__Host-binnacle_session';
  const origin = new URL(config.publicUrl).origin;

  const request: TestHub['request'] = async (method, path, requestOptions = {}) => {
    const headers: Record<string, string> = { ...requestOptions.headers };
    const as = requestOptions.as;
    if (as && 'cookie' in as)
      headers.cookie = [headers.cookie, `${cookieName}=${as.cookie}`].filter(Boolean).join('; ');
    if (as && 'pat' in as) headers.authorization = `Bearer ${as.pat}`;
    if (requestOptions.origin !== null && method !== 'GET') headers.origin = requestOptions.origin ?? origin;
    const answer = await hub.app.inject({
      method: method as 'GET',
      url: path,
      headers,
      ...(requestOptions.remoteAddress ? { remoteAddress: requestOptions.remoteAddress } : {}),
      ...(requestOptions.body === undefined ? {} : { payload: requestOptions.body as object }),
    });
    return {
      status: answer.statusCode,
      headers: answer.headers,
      body: answer.body,
      json: <T>() => answer.json() as T,
    };
  };

  const cookieFrom = (answer: HttpAnswer) => {
    const setCookie = [answer.headers['set-cookie'] ?? []]
      .flat()
      .map(String)
      .find((c) => c.startsWith(`${cookieName}=`));
    if (!setCookie) throw new Error(`no session cookie in the answer (${answer.status} ${answer.body})`);
    return setCookie.slice(cookieName.length + 1).split(';')[0] as string;
  };

  return {
    hub,
    clock,
    logs,
    database,
    cookieName,
    origin,
    request,
    async signInBreakGlass(password = testBreakGlass.password) {
      const answer = await request('POST', '/api/auth/break-glass/login', {
        body: { email: testBreakGlass.email, password },
      });
      if (answer.status !== 200)
        throw new Error(`break-glass sign-in failed: ${answer.status} ${answer.body}`);
      const body = answer.json<{ orgId: string; user: { id: string } }>();
      return { cookie: cookieFrom(answer), orgId: body.orgId, userId: body.user.id };
    },
    async signInOidc(idp, user, returnTo) {
      const login = await request(
        'GET',
        `/api/auth/oidc/login${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`,
      );
      if (login.status !== 302) throw new Error(`OIDC login did not redirect: ${login.status} ${login.body}`);
      const loginCookie = [login.headers['set-cookie'] ?? []].flat().map(String)[0]?.split(';')[0] as string;
      const callbackUrl = new URL(await signInAtIdp(idp, String(login.headers.location), user));
      const callback = await request('GET', `${callbackUrl.pathname}${callbackUrl.search}`, {
        headers: { cookie: loginCookie },
      });
      return { cookie: callback.status === 302 ? cookieFrom(callback) : '', callback };
    },
    async addUser(email, role, orgId) {
      const at = clock.now().toISOString();
      const user = await upsertUser(
        hub.ctx.database.db,
        { issuer: addedUsersIdp.oidcIssuer, subject: email, email, name: email.split('@')[0] ?? email },
        at,
      );
      await addMember(hub.ctx.database.db, orgId, user.id, role, at);
      const session = await hub.ctx.sessions.open({ userId: user.id, orgId, method: 'oidc' });
      return { userId: user.id, cookie: session.cookieValue };
    },
    createOrg: (name) => createOrg(hub.ctx.database.db, name, clock.now().toISOString()),
    async close() {
      await hub.close();
      if (!options.database) await rm(database.dataDir, { recursive: true, force: true });
    },
  };
}
