import { describe, expect, it } from 'vitest';
import { forwardableGroups } from './groups.ts';

const of = (value: unknown, extra: Record<string, unknown> = {}) =>
  forwardableGroups({ groups: value, ...extra }, 'groups');

describe('forwardable groups', () => {
  it('keeps a full-path group with its leading slash', () => {
    expect(of(['/platform-admins']).groups).toEqual(['/platform-admins']);
  });

  it('drops hostile values, never escaping them, and keeps the valid ones in order', () => {
    const slash128 = `/${'a'.repeat(127)}`;
    const hostile = [
      'a b',
      'a,b',
      'Équipe',
      'x\r\nImpersonate-User: admin',
      'nul\u0000',
      'tab\t',
      'b'.repeat(129),
      'CN=ops,OU=groups,DC=example',
      '',
      42,
      null,
    ];
    const result = of(['first', ...hostile, slash128, 'system:masters', 'first']);
    expect(result.groups).toEqual(['first', slash128, 'system:masters']);
    expect(result.dropped).toBe(hostile.length);
  });

  it('treats a string claim as one group and never splits it', () => {
    expect(of('/eng/sre').groups).toEqual(['/eng/sre']);
    expect(of('ops,dev').groups).toEqual([]);
  });

  it('keeps the first 64 valid groups of 70, counting the rest as dropped', () => {
    const seventy = Array.from({ length: 70 }, (_, i) => `g${i}`);
    const result = of(['bad value', ...seventy]);
    expect(result.groups).toEqual(seventy.slice(0, 64));
    expect(result.dropped).toBe(7);
  });

  it('gives no groups for a missing or wrong claim, or with forwarding off', () => {
    expect(forwardableGroups({ roles: ['x'] }, 'groups').groups).toEqual([]);
    expect(forwardableGroups({ groups: ['x'] }, '').groups).toEqual([]);
    expect(of({ nested: 'object' }).groups).toEqual([]);
  });

  it('notices an Entra group overage', () => {
    expect(of(undefined, { _claim_names: { groups: 'src1' } }).overage).toBe(true);
    expect(of(undefined, { hasgroups: true }).overage).toBe(true);
  });
});
