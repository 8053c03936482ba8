import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../security/tokens.ts';
import { startTestHub, type TestHub } from '../../testing/index.ts';

const minute = 60_000;
const hour = 60 * minute;
const hubs: TestHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
});

async function hub(config = {}, database?: TestHub['database']) {
  const started = await startTestHub({ config, database });
  hubs.push(started);
  return started;
}

const account = (t: TestHub, cookie: string) => t.request('GET', '/api/account', { as: { cookie } });
const lastSeen = async (t: TestHub, cookie: string) =>
  (
    await t.hub.ctx.database.db
      .selectFrom('sessions')
      .select('last_seen_at')
      .where('id_hash', '=', hashSecret(cookie))
      .executeTakeFirst()
  )?.last_seen_at;

function expectEnded(answer: Awaited<ReturnType<TestHub['request']>>, code = 'session_ended') {
  expect(answer.status, answer.body).toBe(401);
  expect(answer.json().code).toBe(code);
  expect(String(answer.headers['set-cookie'])).toMatch(/__Host-binnacle_session=;.*Max-Age=0/);
}

// One test per row of the spec's hub-session state table that does not involve OIDC.
describe('hub session states', () => {
  it('active → ended when the absolute lifetime (168h from sign-in) is reached, however busy the session', async () => {
    const t = await hub();
    const { cookie } = await t.signInBreakGlass();
    for (let day = 0; day < 13; day++) {
      t.clock.advance(12 * hour);
      expect((await account(t, cookie)).status).toBe(200);
    }
    t.clock.advance(12 * hour - 1); // 1 ms before the 168h lifetime
    expect((await account(t, cookie)).status).toBe(200);
    t.clock.advance(1);
    expectEnded(await account(t, cookie));
    expect(await lastSeen(t, cookie)).toBeUndefined();
    // A copied cookie stays useless: the row is gone, and past its lifetime nothing of it is kept.
    expect((await account(t, cookie)).json().code).toBe('unauthenticated');
    expect(await t.hub.ctx.database.db.selectFrom('ended_sessions').selectAll().execute()).toEqual([]);
  });

  it('active → ended when unused for the inactivity window (24h by default)', async () => {
    const t = await hub();
    const { cookie } = await t.signInBreakGlass();
    t.clock.advance(24 * hour - minute);
    expect((await account(t, cookie)).status).toBe(200); // activity recorded: the window starts again
    t.clock.advance(24 * hour - minute);
    expect((await account(t, cookie)).status).toBe(200);
    t.clock.advance(24 * hour);
    expectEnded(await account(t, cookie));
  });

  it('an idle session the sweep ended still answers session_ended, until its lifetime is over and it is forgotten', async () => {
    const t = await hub();
    const { cookie } = await t.signInBreakGlass();
    t.clock.advance(24 * hour);
    expect(await t.hub.ctx.sessions.sweep()).toBe(1);
    expect(await lastSeen(t, cookie)).toBeUndefined();
    const ended = await account(t, cookie);
    expectEnded(ended);
    expect(ended.json().error).toBe('the session ended (it was unused for too long); sign in again');
    t.clock.advance(144 * hour); // the 168h lifetime is over: the browser has dropped the cookie too
    await t.hub.ctx.sessions.sweep();
    expect(await t.hub.ctx.database.db.selectFrom('ended_sessions').selectAll().execute()).toEqual([]);
    expect((await account(t, cookie)).json().code).toBe('unauthenticated');
  });

  it('records activity at most once every 10 minutes, so the inactivity window counts from the last recorded use', async () => {
    const t = await hub({ maxInactiveMs: 30 * minute });
    const { cookie } = await t.signInBreakGlass();
    const signedInAt = await lastSeen(t, cookie);
    t.clock.advance(9 * minute);
    expect((await account(t, cookie)).status).toBe(200);
    expect(await lastSeen(t, cookie)).toBe(signedInAt); // not written: under 10 minutes
    t.clock.advance(minute);
    expect((await account(t, cookie)).status).toBe(200);
    const recorded = await lastSeen(t, cookie);
    expect(Date.parse(recorded as string) - Date.parse(signedInAt as string)).toBe(10 * minute);
    t.clock.advance(9 * minute); // used again, not recorded (19 min after sign-in)
    expect((await account(t, cookie)).status).toBe(200);
    expect(await lastSeen(t, cookie)).toBe(recorded);
    // 30 minutes after the last *recorded* use the session ends, though it was used 21 minutes ago.
    t.clock.advance(21 * minute);
    expectEnded(await account(t, cookie));
  });

  it('active → ended on POST /api/auth/signout, which clears the cookie; the old cookie is refused afterwards', async () => {
    const t = await hub();
    const { cookie } = await t.signInBreakGlass();
    const wrongMethod = await t.request('GET', '/api/auth/signout', { as: { cookie } });
    expect([wrongMethod.status, wrongMethod.headers.allow]).toEqual([405, 'POST']);
    const out = await t.request('POST', '/api/auth/signout', { as: { cookie } });
    expect(out.status, out.body).toBe(200);
    const cleared = String(out.headers['set-cookie']);
    expect(cleared).toMatch(/^__Host-binnacle_session=;/);
    for (const attribute of ['Max-Age=0', 'Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax'])
      expect(cleared).toContain(attribute);
    expect(await lastSeen(t, cookie)).toBeUndefined();
    const replay = await account(t, cookie);
    expectEnded(replay);
    expect(replay.json().error).toBe('the session ended (you signed out); sign in again');
  });

  it('active → ended at once, every session and PAT, when an owner removes the user from the organization', async () => {
    const t = await hub();
    const owner = await t.signInBreakGlass();
    const user = await t.addUser('leaver@example.com', 'member', owner.orgId);
    const laptop = user.cookie;
    const phone = (await t.hub.ctx.sessions.open({ userId: user.userId, orgId: owner.orgId, method: 'oidc' }))
      .cookieValue;
    const pat = (
      await t.request('POST', '/api/pats', { as: { cookie: laptop }, body: { name: 'script' } })
    ).json<{ token: string }>().token;
    for (const credential of [{ cookie: laptop }, { cookie: phone }, { pat }]) {
      expect((await t.request('GET', '/api/account', { as: credential })).status).toBe(200);
    }
    const removed = await t.request('DELETE', `/api/orgs/${owner.orgId}/members/${user.userId}`, {
      as: { cookie: owner.cookie },
    });
    expect(removed.status, removed.body).toBe(204);
    for (const cookie of [laptop, phone]) {
      const ended = await account(t, cookie);
      expectEnded(ended);
      expect(ended.json().error).toMatch(/no longer a member of the organization/);
    }
    const patAnswer = await t.request('GET', '/api/account', { as: { pat } });
    expect([patAnswer.status, patAnswer.json().code]).toEqual([401, 'unauthenticated']);
    const audit = await t.request('GET', `/api/orgs/${owner.orgId}/audit?action=member.remove`, {
      as: { cookie: owner.cookie },
    });
    expect(
      audit.json<{ items: { detail: { sessionsEnded: number } }[] }>().items[0]?.detail.sessionsEnded,
    ).toBe(2);
  });

  it('active → ended for break-glass sessions only when the break-glass password changes (new secret + restart)', async () => {
    const first = await hub();
    const admin = await first.signInBreakGlass();
    const member = await first.addUser('stays@example.com', 'member', admin.orgId);
    const database = first.database;
    await first.hub.close();
    hubs.splice(hubs.indexOf(first), 1);

    const restartedSame = await hub({}, database);
    expect((await account(restartedSame, admin.cookie)).status).toBe(200); // same password: kept
    await restartedSame.hub.close();
    hubs.splice(hubs.indexOf(restartedSame), 1);

    const rotated = await hub({ breakGlassPassword: 'a brand new password' }, database);
    expectEnded(await account(rotated, admin.cookie));
    const again = await account(rotated, admin.cookie); // ended already: remembered, same answer
    expectEnded(again);
    expect(again.json().error).toMatch(/break-glass password changed/);
    expect((await account(rotated, member.cookie)).status).toBe(200); // OIDC sessions are not touched
    const signIn = await rotated.request('POST', '/api/auth/break-glass/login', {
      body: { email: 'admin@example.com', password: 'a brand new password' },
    });
    expect(signIn.status, signIn.body).toBe(200);
  });
});
