import { describe, expect, it } from 'vitest';
import { fieldChanges } from './fields.ts';

describe('fieldChanges', () => {
  it('names each changed field by path, matching containers by name and leaving bookkeeping out', () => {
    const before = {
      kind: 'Deployment',
      metadata: { name: 'web', resourceVersion: '1', labels: { tier: 'front' } },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'web:1' }] } } },
    };
    const after = {
      kind: 'Deployment',
      metadata: { name: 'web', resourceVersion: '9' },
      spec: {
        replicas: 3,
        template: {
          spec: {
            containers: [
              { name: 'sidecar', image: 'proxy:1' },
              { name: 'app', image: 'web:2' },
            ],
          },
        },
      },
    };
    expect(fieldChanges(before, after)).toEqual({
      fields: [
        { path: 'metadata.labels', old: { tier: 'front' } },
        { path: 'spec.replicas', old: 2, new: 3 },
        { path: 'spec.template.spec.containers[app].image', old: 'web:1', new: 'web:2' },
        { path: 'spec.template.spec.containers[sidecar]', new: { name: 'sidecar', image: 'proxy:1' } },
      ],
      more: false,
    });
  });

  it('stops at the limit and cuts long values', () => {
    const many = (value: number) => ({
      kind: 'ConfigMap',
      data: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, `${value}`])),
    });
    const { fields, more } = fieldChanges(many(1), many(2), 10);
    expect(fields).toHaveLength(10);
    expect(more).toBe(true);
    const long = fieldChanges(
      { kind: 'X', spec: { text: 'a' } },
      { kind: 'X', spec: { text: 'b'.repeat(1000) } },
    );
    expect(String(long.fields[0]?.new)).toMatch(/… \(1000 characters\)$/);
  });
});
