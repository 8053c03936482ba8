import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { appliedApiVersion, cacheForm, isPartial, shareStrings, stripObject } from './objects.ts';

const applied = 'kubectl.kubernetes.io/last-applied-configuration';

describe('the cached form of an object', () => {
  it('drops managedFields and the last-applied copy, keeping every other annotation in its place', () => {
    const object: KubeObject = {
      kind: 'Pod',
      metadata: {
        name: 'web',
        annotations: { team: 'shop', [applied]: '{"big":"copy"}', owner: 'ops' },
        managedFields: [{ manager: 'kubectl' }],
        labels: { app: 'web' },
      },
    };
    expect(stripObject(object).metadata).toEqual({
      name: 'web',
      annotations: { team: 'shop', owner: 'ops' },
      labels: { app: 'web' },
    });
    expect(Object.keys(object.metadata ?? {})).toEqual(['name', 'annotations', 'labels']);
  });

  it('drops the annotations when the last-applied copy was the only one, and leaves a lean object as it is', () => {
    const object: KubeObject = { metadata: { name: 'a', annotations: { [applied]: '{}' } } };
    expect(stripObject(object).metadata).toEqual({ name: 'a' });
    const lean = { metadata: { name: 'b', annotations: { team: 'x' } } };
    const before = lean.metadata;
    expect(stripObject(lean).metadata).toBe(before);
  });

  it('keeps the apiVersion the last-applied copy names when it differs, out of sight of serializers', () => {
    const copy = JSON.stringify({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: {} });
    const object: KubeObject = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'pdb', annotations: { [applied]: copy } },
    };
    stripObject(object);
    expect(appliedApiVersion(object)).toBe('policy/v1beta1');
    expect(JSON.parse(JSON.stringify(object))).toEqual({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'pdb' },
    });
    const current: KubeObject = {
      apiVersion: 'apps/v1',
      metadata: { name: 'd', annotations: { [applied]: '{"apiVersion":"apps/v1","kind":"Deployment"}' } },
    };
    expect(appliedApiVersion(stripObject(current))).toBeUndefined();
  });

  it("keeps a CustomResourceDefinition without its versions' schemas, marked as kept in part", () => {
    const column = { name: 'Ready', type: 'string', jsonPath: '.status.ready' };
    const crd: KubeObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com', managedFields: [{ manager: 'helm' }] },
      spec: {
        group: 'example.com',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object' } },
            additionalPrinterColumns: [column],
          },
          { name: 'v1beta1', served: false, storage: false },
        ],
      },
    };
    const kept = cacheForm('apiextensions.k8s.io', crd);
    expect(kept.spec).toEqual({
      group: 'example.com',
      versions: [
        { name: 'v1', served: true, storage: true, additionalPrinterColumns: [column] },
        { name: 'v1beta1', served: false, storage: false },
      ],
    });
    expect(kept.metadata).toEqual({ name: 'widgets.example.com' });
    expect(isPartial(kept)).toBe(true);
    expect(Object.keys(kept)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });

  it('keeps every other kind whole, also one named CustomResourceDefinition in another group', () => {
    const pod: KubeObject = { kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] } };
    expect(isPartial(cacheForm('', pod))).toBe(false);
    const lookalike: KubeObject = { kind: 'CustomResourceDefinition', spec: { versions: [{ schema: {} }] } };
    expect(cacheForm('example.com', lookalike).spec).toEqual({ versions: [{ schema: {} }] });
    expect(isPartial(lookalike)).toBe(false);
  });
});

describe('strings shared among cached objects', () => {
  const collect = () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    return gc;
  };
  const pod = (i: number) =>
    `{"kind":"Pod","metadata":{"name":"p-${i}","namespace":"default"},"spec":{"containers":[{"name":"c","image":"registry.example.com/team/${'service'.repeat(12)}:1.2.3","terminationMessagePath":"/dev/termination-log"}],"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists"}]}}`;

  /** Heap the parsed pods hold, each kept as the cache keeps it or as parsed. */
  function heldBytes(count: number, keep: (object: KubeObject) => KubeObject): number {
    const gc = collect();
    gc();
    const before = getHeapStatistics().used_heap_size;
    const kept = Array.from({ length: count }, (_, i) => keep(JSON.parse(pod(i)) as KubeObject));
    gc();
    const held = getHeapStatistics().used_heap_size - before;
    expect(kept).toHaveLength(count);
    return held;
  }

  it('keeps every value as it was, in the same places', () => {
    const parsed = JSON.parse(pod(1)) as KubeObject;
    const copy = structuredClone(parsed);
    shareStrings(parsed);
    expect(parsed).toEqual(copy);
    expect(Object.keys(parsed.spec as object)).toEqual(['containers', 'tolerations']);
    // A custom resource nested past any real object is walked to a bound, its values kept.
    let deep: Record<string, unknown> = { value: 'a value deep down' };
    for (let level = 0; level < 50_000; level += 1) deep = { next: deep };
    const nested = { kind: 'Deep', spec: deep } as KubeObject;
    expect(() => cacheForm('example.com', nested)).not.toThrow();
    let inner = nested.spec as Record<string, unknown>;
    while (inner.next) inner = inner.next as Record<string, unknown>;
    expect(inner).toEqual({ value: 'a value deep down' });
  });

  it('holds one copy of a value 20 000 objects repeat', () => {
    const parsedOnly = heldBytes(20_000, (object) => object);
    const cached = heldBytes(20_000, (object) => cacheForm('', object));
    // Each pod repeats ~140 characters of values past the shortest shared: ~3 MB held once instead of 20 000 times.
    expect(parsedOnly - cached).toBeGreaterThan(2_000_000);
  });
});
