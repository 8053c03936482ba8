import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '@binnacle/common';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from './history-store.ts';
import { HistoryJournal } from './journal.ts';
import { resume } from './resume.ts';
import { ObjectVersions } from './versions.ts';

const pod = (name: string, version: number, image = 'web:1'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'shop', uid: `uid-${name}`, resourceVersion: String(version) },
  spec: { containers: [{ name: 'app', image, env: [{ name: 'N', value: String(version) }] }] },
});
const names = (objects: KubeObject[]) =>
  objects.map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`).sort();
const options = { windowMs: 3_600_000, maxBytes: 10_000_000 };

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** One run of the agent: versions fed as the informers would, written through the journal. */
function run(path: string, now: { ms: number }) {
  const store = HistoryStore.open(path);
  const journal = new HistoryJournal(store, { now: () => now.ms });
  const versions = new ObjectVersions({ ...options, journal: (step) => journal.add(step) });
  return {
    store,
    versions,
    stop() {
      journal.close();
      store.close();
    },
  };
}

describe('the history across a restart', () => {
  it('answers moments before it from disk, and takes what changed while stopped as changed when it lists again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'history-resume-'));
    dirs.push(dir);
    const path = join(dir, 'timeline.history.db');
    const now = { ms: 1000 };
    const first = run(path, now);
    const listed = [pod('a', 1), pod('b', 2), pod('c', 3), pod('d', 4)];
    // A new file: the kind's history begins with its first list, no gap.
    expect(resume(first.store, first.versions, 0).takeUp('pods', listed, 1000)).toBeUndefined();
    first.versions.begin('pods', listed, 1000);
    // 40 changes of a: more than one whole state plus operations, so the replay crosses a keyframe.
    for (let v = 10; v < 50; v += 1) first.versions.record('pods', pod('a', v, `web:${v}`), 1000 + v * 10);
    first.versions.remove('pods', pod('d', 4), 1600);
    now.ms = 2000;
    first.stop();

    // Stopped from 2000 to 5000: b changed, c went, e came.
    now.ms = 5000;
    const second = run(path, now);
    const resumed = resume(second.store, second.versions, now.ms - options.windowMs);
    expect(second.versions.window('pods', now.ms)).toBeUndefined();
    const taken = resumed.takeUp('pods', [pod('a', 49, 'web:49'), pod('b', 60), pod('e', 61)], 5000);
    expect(taken?.gap).toEqual({ resource: 'pods', from: 2000, to: 5000 });
    // What changed or went while stopped (e is new: its creation has its own record, its metadata's).
    expect(taken?.changes.map((c) => `${names([c.before])}→${c.after ? names([c.after]) : 'gone'}`)).toEqual([
      'b@2→b@60',
      'c@3→gone',
    ]);
    second.versions.begin('pods', [pod('a', 49, 'web:49'), pod('b', 60), pod('e', 61)], 5000);

    expect(second.versions.window('pods', 6000)).toEqual({ oldest: 1000, newest: 6000 });
    expect(names(second.versions.list('pods', 1000))).toEqual(['a@1', 'b@2', 'c@3', 'd@4']);
    expect(second.versions.get('pods', 'shop', 'a', 1255)).toEqual(pod('a', 25, 'web:25'));
    expect(names(second.versions.list('pods', 1700))).toEqual(['a@49', 'b@2', 'c@3']);
    expect(names(second.versions.list('pods', 5000))).toEqual(['a@49', 'b@60', 'e@61']);
    const changed = second.versions.changes(1700, 5000).map((c) => names([c.before ?? c.after ?? {}]));
    expect(changed.flat().sort()).toEqual(['b@2', 'c@3', 'e@61']);
    now.ms = 7000;
    second.stop();

    // A second restart reads the first run's states and the second's (the change of b, e, c's deletion) back.
    const third = run(path, now);
    const again = resume(third.store, third.versions, now.ms - options.windowMs);
    expect(again.gaps).toEqual([{ resource: 'pods', from: 2000, to: 5000 }]);
    again.takeUp('pods', [pod('a', 49, 'web:49'), pod('b', 60), pod('e', 61)], 8000);
    third.versions.begin('pods', [pod('a', 49, 'web:49'), pod('b', 60), pod('e', 61)], 8000);
    expect(names(third.versions.list('pods', 1000))).toEqual(['a@1', 'b@2', 'c@3', 'd@4']);
    expect(names(third.versions.list('pods', 6000))).toEqual(['a@49', 'b@60', 'e@61']);
    expect(third.versions.get('pods', 'shop', 'a', 1400)).toEqual(pod('a', 40, 'web:40'));
    third.stop();
  });

  it('writes an object whole at first and after 15 states as operations, and keeps the store to the window', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'history-journal-'));
    dirs.push(dir);
    const path = join(dir, 'timeline.history.db');
    const now = { ms: 0 };
    const one = run(path, now);
    one.versions.begin('pods', [pod('a', 1)], 0);
    for (let v = 2; v <= 40; v += 1) one.versions.record('pods', pod('a', v, `web:${v}`), v * 1000);
    now.ms = 41_000;
    one.stop();
    const store = HistoryStore.open(path);
    const forms = [...store.states()].map((s) => s.form);
    expect(forms).toHaveLength(40);
    expect(forms.filter((f) => f === 'whole')).toHaveLength(3);
    expect(forms[0]).toBe('whole');
    expect(forms[16]).toBe('whole');
    expect(store.watchedUntil()).toBe(41_000);
    // The window from 20 s on needs the whole state at 16 s and what follows it.
    store.prune(20_000);
    expect([...store.states()].map((s) => s.at / 1000)).toEqual(Array.from({ length: 24 }, (_, i) => i + 17));
    store.close();
  });
});
