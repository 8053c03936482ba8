import http from 'node:http';
import {
  type HaproxyServer,
  type HubProcess,
  hubProcessBreakGlass,
  spawnHub,
  startHaproxy,
} from '@binnacle/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 37 #4 across processes: `binnacle hub --trusted-proxies 127.0.0.1` behind a real HAProxy
 * (`option forwardfor`), with clients on loopback addresses of their own (127.0.0.2, 127.0.0.3 …) so the
 * proxy and the hub see them apart, as they would see hosts on a network.
 */
const attacker = '127.0.0.2';
const owner = '127.0.0.3';
const direct = '127.0.0.4';
let hub: HubProcess;
let proxy: HaproxyServer;
/** The owner's browser's device cookie (`binnacle_device=…`), from its first sign-in. */
let ownerDevice: string;

beforeAll(async () => {
  hub = await spawnHub({ env: { BINNACLE_TRUSTED_PROXIES: '127.0.0.1' } });
  proxy = await startHaproxy({ backends: [{ name: 'hub-0', url: hub.url }] });
});
afterAll(async () => {
  await proxy?.stop();
  await hub?.stop();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
  cookies: string[];
}

/** A request from `from` (a loopback address) to `base`, with what a script would send. */
function call(
  base: string,
  from: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: from,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString() || '{}'),
            cookies: (response.headers['set-cookie'] ?? []).map((c) => c.split(';')[0] as string),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const signIn = (base: string, from: string, password: string, headers: Record<string, string> = {}) =>
  call(base, from, 'POST', '/api/auth/break-glass/login', {
    body: { email: hubProcessBreakGlass.email, password },
    headers,
  });

async function auditAddresses(session: string, action: string): Promise<string[]> {
  const account = await call(proxy.url, owner, 'GET', '/api/account', { headers: { cookie: session } });
  const orgId = (account.body.currentOrg as { id: string }).id;
  const audit = await call(proxy.url, owner, 'GET', `/api/orgs/${orgId}/audit?action=${action}&limit=20`, {
    headers: { cookie: session },
  });
  return (audit.body.items as { ip: string }[]).map((item) => item.ip);
}

describe('break-glass sign-in behind a real proxy', () => {
  it('five wrong passwords from one client leave the owner at another able to sign in; the audit log names each client', async () => {
    // The admin exists (failures on its e-mail are audited from then on); the owner's browser is known.
    const first = await signIn(proxy.url, owner, hubProcessBreakGlass.password);
    expect(first.status).toBe(200);
    ownerDevice = first.cookies.find((c) => c.startsWith('binnacle_device=')) as string;
    expect(ownerDevice).toBeDefined();
    // The attacker also writes the owner's address into X-Forwarded-For: the proxy appends the real one.
    const spoof = { 'x-forwarded-for': owner };
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await signIn(proxy.url, attacker, `guess ${attempt}`, spoof)).status).toBe(401);
    const held = await signIn(proxy.url, attacker, hubProcessBreakGlass.password, spoof);
    expect([held.status, held.body.code]).toEqual([429, 'rate_limited']);
    const signedIn = await signIn(proxy.url, owner, hubProcessBreakGlass.password);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const session = signedIn.cookies.find((c) => c.startsWith('binnacle_session=')) as string;
    expect(await auditAddresses(session, 'auth.sign_in_failed')).toEqual(Array(5).fill(attacker));
    expect(await auditAddresses(session, 'auth.sign_in')).toEqual([owner, owner]);
  });

  it('a client that reaches the hub directly is itself, whatever X-Forwarded-For it sends; the owner’s browser is not held back', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const answer = await signIn(hub.url, direct, `guess ${attempt}`, {
        'x-forwarded-for': `198.51.100.${attempt}`,
      });
      expect(answer.status).toBe(401);
    }
    expect(
      (await signIn(hub.url, direct, hubProcessBreakGlass.password, { 'x-forwarded-for': owner })).status,
    ).toBe(429);
    // Ten failures on the account from two clients start its delay (a second here, as the clock runs: the hub
    // tests show it grow on a clock they move); the owner's browser is exempt.
    const signedIn = await signIn(proxy.url, owner, hubProcessBreakGlass.password, { cookie: ownerDevice });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const session = signedIn.cookies.find((c) => c.startsWith('binnacle_session=')) as string;
    expect((await auditAddresses(session, 'auth.sign_in_failed')).slice(0, 5)).toEqual(Array(5).fill(direct));
  });
});
