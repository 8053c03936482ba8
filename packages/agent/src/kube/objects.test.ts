import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { stripObject } from './objects.ts';

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
});
