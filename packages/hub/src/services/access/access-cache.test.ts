import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../security/clock.ts';
import { AccessCache } from './access-cache.ts';

/** A loader that counts its calls and answers what `value` holds at the time. */
function counted<T extends object>(initial: T | undefined) {
  const state = { value: initial, loads: 0 };
  const load = () => {
    state.loads += 1;
    return Promise.resolve(state.value);
  };
  return { state, load };
}

describe('AccessCache', () => {
  it('loads once and answers from memory until the TTL, then loads again', async () => {
    const clock = new ManualClock();
    const cache = new AccessCache(clock, { ttlMs: 10_000, maxEntries: 10 });
    const { state, load } = counted({ role: 'owner' });
    expect(await cache.remember('k', load)).toEqual({ role: 'owner' });
    clock.advance(9_999);
    state.value = { role: 'viewer' };
    expect(await cache.remember('k', load)).toEqual({ role: 'owner' });
    expect(state.loads).toBe(1);
    clock.advance(1);
    expect(await cache.remember('k', load)).toEqual({ role: 'viewer' });
    expect(state.loads).toBe(2);
  });

  it('never keeps "nothing found": a row created later is seen at once', async () => {
    const cache = new AccessCache(new ManualClock());
    const { state, load } = counted<{ id: string }>(undefined);
    expect(await cache.remember('k', load)).toBeUndefined();
    state.value = { id: 'new' };
    expect(await cache.remember('k', load)).toEqual({ id: 'new' });
    expect(cache.size).toBe(1);
  });

  it('clear drops every entry', async () => {
    const cache = new AccessCache(new ManualClock());
    const { state, load } = counted({ n: 1 });
    await cache.remember('a', load);
    await cache.remember('b', load);
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
    state.value = { n: 2 };
    expect(await cache.remember('b', load)).toEqual({ n: 2 });
  });

  it('does not keep a row whose load started before a clear (read before the change, answered after it)', async () => {
    const cache = new AccessCache(new ManualClock());
    let release: (row: { role: string }) => void = () => undefined;
    const slow = new Promise<{ role: string }>((resolve) => {
      release = resolve;
    });
    const pending = cache.remember('k', () => slow);
    cache.clear();
    release({ role: 'owner' });
    expect(await pending).toEqual({ role: 'owner' });
    expect(cache.size).toBe(0);
    const { load } = counted({ role: 'viewer' });
    expect(await cache.remember('k', load)).toEqual({ role: 'viewer' });
  });

  it('keeps at most maxEntries, dropping the oldest first', async () => {
    const cache = new AccessCache(new ManualClock(), { ttlMs: 10_000, maxEntries: 3 });
    const { state, load } = counted({ n: 1 });
    for (const key of ['a', 'b', 'c', 'd']) await cache.remember(key, load);
    expect(cache.size).toBe(3);
    expect(state.loads).toBe(4);
    await cache.remember('b', load);
    await cache.remember('d', load);
    expect(state.loads).toBe(4);
    await cache.remember('a', load);
    expect(state.loads).toBe(5);
  });
});
