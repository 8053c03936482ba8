import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { accessCacheDefaults } from '../../services/access/access-cache.ts';
import {
  type Credential,
  freshDatabase,
  ManualClock,
  startTestHub,
  type TestHub,
} from '../../testing/index.ts';

/**
 * A rolling restart onto a new break-glass password (ADR 0047, "Several replicas"): two hubs on one database,
 * A started with the old password and B with the new one. Every credential is judged by the password in force
 * — B's, the newest — on both: A no longer ends what B's password opened, and ends what its own opened. There is
 * no Redis between them, so A hears of B's start only when its cached view expires (the bound when an
 * announcement is missed); the test moves their shared clock past it where that matters.
 */
const newPassword = 'the password after the rotation';
const running = new Set<TestHub>();
let dataDir = '';
afterAll(async () => {
  for (const t of running) await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function hub(database: TestHub['database'], clock: ManualClock, password?: string) {
  const t = await startTestHub({
    clock,
    database,
    config: password ? { breakGlassPassword: password } : {},
  });
  running.add(t);
  return t;
}

async function mint(t: TestHub, cookie: string, name: string) {
  const minted = await t.request('POST', '/api/pats', { as: { cookie }, body: { name } });
  expect(minted.status, minted.body).toBe(201);
  return minted.json<{ id: string; token: string }>();
}

const account = async (t: TestHub, as: Credential) => {
  const answer = await t.request('GET', '/api/account', { as });
  return { status: answer.status, code: answer.status === 200 ? undefined : answer.json().code };
};

describe('replicas on an old and a new break-glass password', () => {
  it('agree on every credential: the newest password is in force on both, the old replica signs no one in', async () => {
    const database = await freshDatabase();
    dataDir = database.dataDir;
    const clock = new ManualClock();
    const a = await hub(database, clock);
    const before = await a.signInBreakGlass();
    const oldPat = await mint(a, before.cookie, 'before');
    expect(await account(a, { pat: oldPat.token })).toEqual({ status: 200 });

    const b = await hub(database, clock, newPassword);
    const after = await b.signInBreakGlass(newPassword);
    const newPat = await mint(b, after.cookie, 'after');

    // A still caches the old password as in force, yet does not end what the new one opened.
    for (const t of [a, b, a]) {
      expect(await account(t, { cookie: after.cookie })).toEqual({ status: 200 });
      expect(await account(t, { pat: newPat.token })).toEqual({ status: 200 });
    }
    const refused = await a.request('POST', '/api/auth/break-glass/login', {
      body: { email: 'admin@example.com', password: newPassword },
    });
    expect(refused.status, refused.body).toBe(503);
    expect(refused.json()).toEqual({
      code: 'not_ready',
      error:
        'this hub replica was started with another break-glass password than the one in force (a rolling restart is under way); retry in a moment',
    });
    expect(refused.headers['retry-after']).toBe('2');

    // The old password's session ends on B; once A's cached view is gone, A revokes the old password's PAT.
    expect(await account(b, { cookie: before.cookie })).toEqual({ status: 401, code: 'session_ended' });
    clock.advance(accessCacheDefaults.ttlMs);
    const revoked = await a.request('GET', '/api/account', { as: { pat: oldPat.token } });
    expect(revoked.status).toBe(401);
    expect(revoked.json().error).toMatch(/the break-glass password has changed since; it is revoked$/);
    expect(await account(b, { pat: oldPat.token })).toEqual({ status: 401, code: 'unauthenticated' });
    expect(await account(a, { cookie: before.cookie })).toEqual({ status: 401, code: 'session_ended' });
    const audit = await b.request('GET', `/api/orgs/${after.orgId}/audit?action=pat.revoke`, {
      as: { cookie: after.cookie },
    });
    expect(audit.json<{ items: { target: unknown }[] }>().items.map((item) => item.target)).toEqual([
      { type: 'pat', id: oldPat.id, name: 'before' },
    ]);

    // A restarted with the new password signs the admin in, and what B opened is still valid on it.
    running.delete(a);
    await a.close();
    const restarted = await hub(database, clock, newPassword);
    await restarted.signInBreakGlass(newPassword);
    expect(await account(restarted, { cookie: after.cookie })).toEqual({ status: 200 });
    expect(await account(restarted, { pat: newPat.token })).toEqual({ status: 200 });
  });
});
