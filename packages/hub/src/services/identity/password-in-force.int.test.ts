import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HubDatabase, openDatabase } from '../../db/database.ts';
import { freshDatabase, ManualClock } from '../../testing/index.ts';
import { AccessCache } from '../access/access-cache.ts';
import { Changes } from '../access/changes.ts';
import { PasswordInForce } from './password-in-force.ts';

/**
 * PasswordInForce on this run's database (SQLite, PostgreSQL): the upsert that only a different version
 * changes is dialect-specific. Each "replica" is an instance with its own access cache and change channel over
 * one database, and hears of nothing the others announce — the case where an announcement is missed.
 */
const clock = new ManualClock();
let database: HubDatabase;
let dataDir = '';
beforeAll(async () => {
  const location = await freshDatabase();
  dataDir = location.dataDir;
  database = await openDatabase(location);
});
afterAll(async () => {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A replica started with password version `own`: its PasswordInForce and how many changes it announced. */
function replica(own: string | null) {
  const changes = new Changes();
  const cache = new AccessCache(clock);
  changes.onChange(() => cache.clear());
  const announced: string[] = [];
  changes.onChange((origin) => announced.push(origin));
  return { inForce: new PasswordInForce(own, database.db, clock, { cache, changes }), cache, announced };
}

async function versionInForce() {
  return (await database.db.selectFrom('break_glass_password').selectAll().execute()).map(
    (row) => row.version,
  );
}

describe('the break-glass password in force', () => {
  it('is the one of the replica that started last with a different one, and only a change is announced', async () => {
    const first = replica('v1');
    expect(await first.inForce.claim()).toBe(true);
    expect(first.announced).toEqual(['local']);
    expect(await versionInForce()).toEqual(['v1']);

    // A restart, or another replica, on the same password changes nothing.
    const same = replica('v1');
    expect(await same.inForce.claim()).toBe(false);
    expect(same.announced).toEqual([]);

    // A rolling restart onto a new password: the new replica wins, the old ones no longer sign anyone in.
    const rotated = replica('v2');
    expect(await rotated.inForce.claim()).toBe(true);
    expect(rotated.announced).toEqual(['local']);
    expect(await versionInForce()).toEqual(['v2']);
    expect(await first.inForce.ownInForce()).toBe(false);
    expect(await rotated.inForce.ownInForce()).toBe(true);

    // Rolling back: the newest start wins again.
    const rolledBack = replica('v1');
    expect(await rolledBack.inForce.claim()).toBe(true);
    expect(await versionInForce()).toEqual(['v1']);
    expect(await rotated.inForce.ownInForce()).toBe(false);
  });

  it('decides validity by the version in force, never by the replica own one', async () => {
    const old = replica('v3');
    await old.inForce.claim();
    expect(await old.inForce.valid('v3')).toBe(true); // now cached on the old replica
    expect(await old.inForce.valid('v4')).toBe(false);
    expect(await old.inForce.valid(null)).toBe(false);

    const rotated = replica('v4');
    await rotated.inForce.claim();
    // The old replica has not heard of it: a credential of the new password is confirmed from the database and
    // valid there too, and its own password's credentials are valid only until its cached view goes.
    expect(await old.inForce.valid('v4')).toBe(true);
    expect(await old.inForce.valid('v3')).toBe(true);
    old.cache.clear();
    expect(await old.inForce.valid('v3')).toBe(false);
    expect(await rotated.inForce.valid('v3')).toBe(false);
    expect(await rotated.inForce.valid('v4')).toBe(true);
  });

  it('is none after a start without a break-glass admin: no break-glass credential is valid', async () => {
    const without = replica(null);
    expect(await without.inForce.claim()).toBe(true);
    expect(await versionInForce()).toEqual([null]);
    expect(await without.inForce.ownInForce()).toBe(true);
    expect(await without.inForce.valid(null)).toBe(false);
    expect(await replica('v4').inForce.ownInForce()).toBe(false);
  });
});
