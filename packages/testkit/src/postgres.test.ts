import { existsSync } from 'node:fs';
import pg from 'pg';
import { expect, test } from 'vitest';
import { isListening } from './cluster/ports.ts';
import { startPostgres } from './postgres.ts';

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

test('starts a real server whose databases are isolated, and stopping it leaves nothing behind', async () => {
  const server = await startPostgres();
  try {
    const [first, second] = await Promise.all([server.createDatabase(), server.createDatabase()]);
    expect(first).not.toBe(second);
    for (const url of [first, second]) await query(url, 'CREATE TABLE notes (body text)');
    await query(first, "INSERT INTO notes VALUES ('only in the first')");

    expect((await query(first, 'SELECT body FROM notes')).rows).toEqual([{ body: 'only in the first' }]);
    expect((await query(second, 'SELECT body FROM notes')).rows).toEqual([]);
  } finally {
    await server.stop();
  }
  expect(await isListening(server.port)).toBe(false);
  expect(existsSync(server.dir)).toBe(false);
}, 60_000);
