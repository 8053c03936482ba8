import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { isListening } from './cluster/ports.ts';
import { redisPing, redisServerPath, startRedis } from './redis.ts';

test('starts a Redis on loopback that answers PING, and stopping it frees the port', async () => {
  const redis = await startRedis();
  try {
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await redisPing(redis.port)).toBe(true);
  } finally {
    await redis.stop();
  }
  expect(await isListening(redis.port)).toBe(false);
  await expect(redisPing(redis.port)).rejects.toThrow(/ECONNREFUSED/);
});

test('two servers are independent: each on its own port', async () => {
  const [first, second] = await Promise.all([startRedis(), startRedis()]);
  try {
    expect(first.port).not.toBe(second.port);
    expect(await Promise.all([redisPing(first.port), redisPing(second.port)])).toEqual([true, true]);
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
});

test('a missing binary fails naming the Debian package', () => {
  const path = '/nonexistent/redis-server';
  expect(existsSync(path)).toBe(false);
  expect(() => redisServerPath({ BINNACLE_REDIS_SERVER: path })).toThrow(/Debian package redis-server/);
});
