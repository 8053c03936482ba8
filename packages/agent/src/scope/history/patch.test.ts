import { describe, expect, it } from 'vitest';
import { applied, operations } from './patch.ts';

describe('operations and applied', () => {
  const before = {
    metadata: { name: 'web', labels: { app: 'web', tier: 'front' }, resourceVersion: '1' },
    spec: { replicas: 2, containers: [{ name: 'app', image: 'web:1', ports: [80] }] },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
  const after = {
    metadata: { name: 'web', labels: { app: 'web' }, annotations: { note: 'x' }, resourceVersion: '2' },
    spec: { replicas: 3, containers: [{ name: 'app', image: 'web:2', ports: [80, 443] }] },
    status: { conditions: [] },
  };

  it('turns one state into the other and back, leaving both as they were', () => {
    const frozen = structuredClone({ before, after });
    expect(applied(before, operations(before, after))).toEqual(after);
    expect(applied(after, operations(after, before))).toEqual(before);
    expect({ before, after }).toEqual(frozen);
  });

  it('keeps only what changed, sharing the untouched parts', () => {
    const ops = operations(after, before);
    expect(ops.map((op) => op.path.join('.'))).toEqual([
      'metadata.annotations',
      'metadata.labels.tier',
      'metadata.resourceVersion',
      'spec.replicas',
      'spec.containers.0.image',
      'spec.containers.0.ports',
      'status.conditions',
    ]);
    const back = applied(after, ops);
    expect(back.metadata).not.toBe(after.metadata);
    expect(operations(before, structuredClone(before))).toEqual([]);
  });
});
