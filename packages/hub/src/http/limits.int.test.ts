import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxClustersPerOrg } from '../features/clusters/service.ts';
import { maxPendingInvitations } from '../features/invitations/service.ts';
import { maxPatsPerUser } from '../features/pats/service.ts';
import { maxAuditPage } from '../services/audit/audit-log.ts';
import { addedUsersIdp, startTestHub, type TestHub } from '../testing/index.ts';

/**
 * docs/architecture.md §4: everything a caller can make more of is bounded. Each cap is filled up to one below (the first
 * object through the API, the rest copied in the database), then the API is asked for one more: allowed,
 * and the next is a 409 naming the limit. Pages above their maximum are a 400.
 */
let t: TestHub;
let owner: { cookie: string; orgId: string };
const as = () => ({ as: { cookie: owner.cookie } });

beforeAll(async () => {
  t = await startTestHub({ config: addedUsersIdp });
  owner = await t.signInBreakGlass();
});
afterAll(() => t.close());

/** Copies a row the API made `copies` times, with fresh ids and the unique columns varied. */
async function fill(table: 'pats' | 'clusters' | 'invitations', copies: number, vary: (i: number) => object) {
  const { db } = t.hub.ctx.database;
  const [template] = await db.selectFrom(table).selectAll().execute();
  if (!template) throw new Error(`no ${table} row to copy`);
  const rows = Array.from({ length: copies }, (_, i) => ({ ...template, id: randomUUID(), ...vary(i) }));
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 100))
      .execute();
}

describe('bounded lists', () => {
  it(`PATs: at most ${maxPatsPerUser} per user and organization`, async () => {
    expect((await t.request('POST', '/api/pats', { ...as(), body: { name: 'first' } })).status).toBe(201);
    await fill('pats', maxPatsPerUser - 2, (i) => ({ name: `copy ${i}`, token_hash: `h${i}` }));
    expect((await t.request('POST', '/api/pats', { ...as(), body: { name: 'last' } })).status).toBe(201);
    const over = await t.request('POST', '/api/pats', { ...as(), body: { name: 'over' } });
    expect(over.status).toBe(409);
    expect(over.json()).toEqual({ code: 'conflict', error: expect.stringContaining(String(maxPatsPerUser)) });
  });

  it(`clusters: at most ${maxClustersPerOrg} per organization`, async () => {
    expect((await t.request('POST', '/api/clusters', { ...as(), body: { name: 'first' } })).status).toBe(201);
    await fill('clusters', maxClustersPerOrg - 2, (i) => ({ name: `copy-${i}`, token_hash: `h${i}` }));
    expect((await t.request('POST', '/api/clusters', { ...as(), body: { name: 'last' } })).status).toBe(201);
    const over = await t.request('POST', '/api/clusters', { ...as(), body: { name: 'over' } });
    expect(over.status).toBe(409);
    expect(over.json().error).toContain(String(maxClustersPerOrg));
  });

  it(`invitations: at most ${maxPendingInvitations} pending per organization`, async () => {
    const invite = (email: string) =>
      t.request('POST', `/api/orgs/${owner.orgId}/invitations`, { ...as(), body: { email, role: 'viewer' } });
    expect((await invite('first@example.com')).status).toBe(201);
    await fill('invitations', maxPendingInvitations - 2, (i) => ({
      email: `copy${i}@example.com`,
      token_hash: `h${i}`,
    }));
    expect((await invite('last@example.com')).status).toBe(201);
    const over = await invite('over@example.com');
    expect(over.status).toBe(409);
    expect(over.json().error).toContain(String(maxPendingInvitations));
  });

  it(`audit pages: at most ${maxAuditPage} events`, async () => {
    const page = (limit: number) => t.request('GET', `/api/orgs/${owner.orgId}/audit?limit=${limit}`, as());
    expect((await page(maxAuditPage)).status).toBe(200);
    const over = await page(maxAuditPage + 1);
    expect(over.status).toBe(400);
    expect(over.json().code).toBe('invalid_request');
  });
});
