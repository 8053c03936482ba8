import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { historyForm } from './form.ts';
import { ObjectVersions } from './versions.ts';

const pod = (name: string, version: number, image = 'web:1', namespace = 'shop'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, uid: `uid-${namespace}-${name}`, resourceVersion: String(version) },
  spec: { containers: [{ name: 'app', image }] },
});
const names = (objects: KubeObject[]) =>
  objects.map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`).sort();
const big = { windowMs: 3_600_000, maxBytes: 10_000_000 };

describe('ObjectVersions', () => {
  it('answers each moment with the objects as they were then, from the first list on', () => {
    const history = new ObjectVersions(big);
    history.begin('pods', [pod('a', 1), pod('b', 2)], 1000);
    history.record('pods', pod('a', 3, 'web:2'), 2000);
    history.record('pods', pod('c', 4), 3000);
    history.remove('pods', pod('b', 2), 4000);
    expect(names(history.list('pods', 1500))).toEqual(['a@1', 'b@2']);
    expect(names(history.list('pods', 2000))).toEqual(['a@3', 'b@2']);
    expect(names(history.list('pods', 3500))).toEqual(['a@3', 'b@2', 'c@4']);
    expect(names(history.list('pods', 4000))).toEqual(['a@3', 'c@4']);
    expect(history.get('pods', 'shop', 'b', 3999)?.metadata?.resourceVersion).toBe('2');
    expect(history.get('pods', 'shop', 'b', 4000)).toBeUndefined();
    expect(history.list('pods', 1500, ['other'])).toEqual([]);
    expect(history.window('pods', 5000)).toEqual({ oldest: 1000, newest: 5000 });
    expect(history.window('services', 5000)).toBeUndefined();
  });

  it('names what was created, deleted and modified between two moments', () => {
    const history = new ObjectVersions(big);
    history.begin('pods', [pod('a', 1), pod('b', 2)], 1000);
    history.record('pods', pod('a', 3, 'web:2'), 2000);
    history.record('pods', pod('c', 4), 3000);
    history.remove('pods', pod('b', 2), 4000);
    history.record('pods', pod('gone', 5), 4100);
    history.remove('pods', pod('gone', 5), 4200);
    const changes = history.changes(1500, 5000).map((c) => ({
      name: c.name,
      before: c.before?.metadata?.resourceVersion,
      after: c.after?.metadata?.resourceVersion,
    }));
    expect(changes.sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: 'a', before: '1', after: '3' },
      { name: 'b', before: '2', after: undefined },
      { name: 'c', before: undefined, after: '4' },
    ]);
  });

  it('forgets past states older than the window, keeping the one in force at its start', () => {
    const history = new ObjectVersions({ windowMs: 10_000, maxBytes: 10_000_000 });
    history.begin('pods', [pod('a', 1), pod('b', 2)], 0);
    history.record('pods', pod('a', 3), 5000);
    history.remove('pods', pod('b', 2), 6000);
    history.record('pods', pod('a', 4), 20_000);
    history.prune(21_000);
    expect(history.window('pods', 21_000)?.oldest).toBe(11_000);
    expect(names(history.list('pods', 11_000))).toEqual(['a@3']);
    // a's first state and all of b are gone; a keeps the state in force at 11 000 and the current one.
    expect(history.stats()).toMatchObject({ objects: 1, versions: 2 });
  });

  it('keeps a past state as the operations back from its successor, whole after 16 in a row', () => {
    const history = new ObjectVersions(big);
    history.begin('pods', [pod('a', 1)], 0);
    for (let version = 2; version <= 40; version += 1)
      history.record('pods', pod('a', version, `web:${version}`), version * 1000);
    const whole = JSON.stringify(pod('a', 1)).length;
    // 39 past states: two kept whole, the others a few operations each.
    expect(history.stats().pastBytes).toBeLessThan(whole * 2 + 37 * 120);
    for (const version of [1, 2, 17, 18, 33, 39, 40])
      expect(history.get('pods', 'shop', 'a', version * 1000 + 500)).toEqual(
        pod('a', version, version === 1 ? 'web:1' : `web:${version}`),
      );
  });

  it('keeps two changes seen in one millisecond as two states, the later one a millisecond after', () => {
    const history = new ObjectVersions(big);
    history.begin('pods', [pod('a', 1)], 1000);
    history.record('pods', pod('a', 2, 'web:2'), 2000);
    history.record('pods', pod('a', 3, 'web:3'), 2000);
    history.record('pods', pod('a', 4, 'web:4'), 5000);
    expect(history.get('pods', 'shop', 'a', 1500)).toEqual(pod('a', 1));
    expect(history.get('pods', 'shop', 'a', 2000)).toEqual(pod('a', 2, 'web:2'));
    expect(history.get('pods', 'shop', 'a', 2001)).toEqual(pod('a', 3, 'web:3'));
    expect(history.get('pods', 'shop', 'a', 5000)).toEqual(pod('a', 4, 'web:4'));
  });

  it('holds its past versions to maxBytes, starting the window later', () => {
    const history = new ObjectVersions({ windowMs: 3_600_000, maxBytes: 200 });
    history.begin('pods', [pod('a', 1)], 0);
    for (let version = 2; version <= 12; version += 1)
      history.record('pods', pod('a', version), version * 1000);
    history.prune(13_000);
    expect(history.stats().pastBytes).toBeLessThanOrEqual(200);
    const oldest = history.window('pods', 13_000)?.oldest ?? 0;
    expect(oldest).toBeGreaterThan(2000);
    expect(names(history.list('pods', oldest))).toEqual([`a@${oldest / 1000}`]);
    expect(names(history.list('pods', 12_500))).toEqual(['a@12']);
  });
});

describe('historyForm', () => {
  it("keeps a Secret's keys and never its values; a ConfigMap's values only when allowed", () => {
    const secret: KubeObject = {
      kind: 'Secret',
      metadata: { name: 's' },
      data: { token: 'c2VjcmV0' },
      stringData: { pin: '1' },
    };
    expect(historyForm(secret, true)).toEqual({
      kind: 'Secret',
      metadata: { name: 's' },
      dataKeys: ['pin', 'token'],
    });
    const config: KubeObject = { kind: 'ConfigMap', metadata: { name: 'c' }, data: { url: 'http://db' } };
    expect(historyForm(config, false)).toEqual({
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      dataKeys: ['url'],
    });
    expect(historyForm(config, true)).toBe(config);
    const plain = pod('a', 1);
    expect(historyForm(plain, false)).toBe(plain);
  });
});
