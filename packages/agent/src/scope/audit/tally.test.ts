import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import type { AuditSettings } from '../../config/agent-config.ts';
import { pod, secure } from './checks/fixtures.ts';
import { AuditEngine, type AuditSource } from './engine.ts';
import { auditReport, objectKey } from './report.ts';

const settings: AuditSettings = { ignoredNamespaces: [], disabledChecks: [], severityOverrides: {} };

/** Pods in namespaces, some privileged (a danger finding), held by a source that tells the engine of changes. */
function cluster() {
  let version = 0;
  const make = (namespace: string, name: string, privileged: boolean): KubeObject => {
    const base = pod({ containers: [secure({ privileged })] }, { name, namespace });
    version += 1;
    return {
      ...base,
      metadata: { ...base.metadata, uid: `${namespace}/${name}`, resourceVersion: String(version) },
    };
  };
  const objects = [
    make('shop', 'web', true),
    make('shop', 'api', false),
    make('shop', 'db', true),
    make('billing', 'worker', true),
    make('billing', 'cron', false),
  ];
  const listeners: ((object: KubeObject, deleted: boolean) => void)[] = [];
  const source: AuditSource = {
    snapshot: () => ({ objects, loading: [] }),
    servedApiVersions: () => ['v1', 'apps/v1'],
    onChange: (listener) => {
      listeners.push(listener);
    },
  };
  const tell = (object: KubeObject, deleted = false) => {
    for (const listener of listeners) listener(object, deleted);
  };
  return {
    engine: new AuditEngine(source),
    replace(index: number, privileged: boolean) {
      const was = objects[index] as KubeObject;
      const next = make(was.metadata?.namespace ?? '', was.metadata?.name ?? '', privileged);
      objects[index] = next;
      tell(next);
    },
    removeNamespace(namespace: string) {
      for (let i = objects.length - 1; i >= 0; i -= 1) {
        const object = objects[i] as KubeObject;
        if (object.metadata?.namespace !== namespace) continue;
        objects.splice(i, 1);
        tell(object, true);
      }
    },
  };
}

const everyKind = () => true;

/** What the full report counts for the same scope: the summary must agree with it. */
function reported(engine: AuditEngine, namespaces?: string[], scoped = settings) {
  const run = engine.run({ namespaces, settings: scoped });
  const report = auditReport(run.audited, run.findings, [], []);
  const { passing, warning, danger } = report.summary;
  const dangers = report.findings
    .filter((f) => f.severity === 'danger')
    .map((f) => `${f.namespace}/${f.name}/${f.checkId}`);
  return { passing, warning, danger, dangers };
}

function summed(engine: AuditEngine, namespaces?: string[], scoped = settings) {
  const s = engine.summary({ namespaces, settings: scoped }, everyKind);
  const { passing, warning, danger } = s;
  const dangers = s.dangers.map(({ finding: f }) => `${f.namespace}/${f.name}/${f.checkId}`);
  return { passing, warning, danger, dangers };
}

describe('AuditEngine.summary', () => {
  it('counts as the full report does, for the whole cluster and for some namespaces', () => {
    const { engine } = cluster();
    const whole = summed(engine);
    expect(whole.danger).toBeGreaterThanOrEqual(3);
    expect(whole.dangers.filter((d) => d.endsWith('/privileged'))).toEqual([
      'billing/worker/privileged',
      'shop/db/privileged',
      'shop/web/privileged',
    ]);
    expect(whole).toEqual(reported(engine));
    expect(summed(engine, ['billing'])).toEqual(reported(engine, ['billing']));
  });

  it('re-tallies only the namespace that changed; the others are read from memory', () => {
    const { engine, replace } = cluster();
    const before = engine.summary({ settings }, everyKind);
    replace(1, true); // shop/api turns privileged
    const after = engine.summary({ settings }, everyKind);
    expect(after.danger).toBe(before.danger + 1);
    const worker = (s: typeof before) => s.dangers.find((d) => d.finding.name === 'worker');
    const web = (s: typeof before) => s.dangers.find((d) => d.finding.name === 'web');
    // The untouched namespace keeps its tally (the same objects); the changed one was judged again.
    expect(worker(after)).toBe(worker(before));
    expect(web(after)).not.toBe(web(before));
    expect(summed(engine)).toEqual(reported(engine));
  });

  it('drops a namespace whose objects are gone, and follows a settings change', () => {
    const { engine, removeNamespace } = cluster();
    summed(engine);
    removeNamespace('billing');
    expect(summed(engine)).toEqual(reported(engine));
    expect(summed(engine).dangers.some((d) => d.startsWith('billing/'))).toBe(false);
    const quiet = { ...settings, disabledChecks: ['privileged'] };
    expect(summed(engine, undefined, quiet)).toEqual(reported(engine, undefined, quiet));
    expect(summed(engine, undefined, quiet).dangers.some((d) => d.endsWith('/privileged'))).toBe(false);
  });

  it('leaves out the kinds a caller may not see', () => {
    const { engine } = cluster();
    const none = engine.summary({ settings }, (kind) => kind !== 'Pod');
    expect({
      passing: none.passing,
      warning: none.warning,
      danger: none.danger,
      dangers: none.dangers,
    }).toEqual({
      passing: 0,
      warning: 0,
      danger: 0,
      dangers: [],
    });
  });
});

describe('AuditEngine.counts', () => {
  /** Every object's and namespace's counts as the full report has them, and as `counts` answers for the same keys. */
  function both(engine: AuditEngine, namespaces?: string[]) {
    const run = engine.run({ namespaces, settings });
    const report = auditReport(run.audited, run.findings, [], []);
    const counts = engine.counts({ namespaces, settings });
    const pair = ({ warning, danger }: { warning: number; danger: number }) => ({ warning, danger });
    const objects = report.groups.map((g) => [objectKey(g), pair(g)] as const);
    const perNamespace = report.namespaces
      .filter((n) => n.namespace && n.warning + n.danger > 0)
      .map((n) => [n.namespace ?? '', pair(n)] as const);
    return {
      reported: { objects, perNamespace },
      counted: {
        objects: objects.map(([key]) => [key, counts.ofObject(key)] as const),
        perNamespace: perNamespace.map(([namespace]) => [namespace, counts.ofNamespace(namespace)] as const),
      },
      counts,
    };
  }

  it('counts each object and namespace as the full report does, and nothing out of scope', () => {
    const { engine, replace } = cluster();
    const whole = both(engine);
    expect(whole.reported.objects.length).toBeGreaterThanOrEqual(3);
    expect(whole.counted).toEqual(whole.reported);
    const billing = both(engine, ['billing']);
    expect(billing.counted).toEqual(billing.reported);
    expect(billing.counts.ofNamespace('shop')).toBeUndefined();
    expect(billing.counts.ofObject('Pod/shop/web')).toBeUndefined();
    replace(1, true); // shop/api turns privileged: counted again
    const after = both(engine);
    expect(after.counted).toEqual(after.reported);
    expect(after.counts.ofObject('Pod/shop/api')?.danger).toBeGreaterThan(0);
  });
});
