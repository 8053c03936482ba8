import { describe, expect, it } from 'vitest';
import type { ApiResource } from './discovery.ts';
import { fieldMatcher, fieldSelectorPattern } from './field-selector.ts';

const pods = { group: '', plural: 'pods' } as ApiResource;
const pod = (nodeName?: string) => ({ kind: 'Pod', spec: nodeName === undefined ? {} : { nodeName } });

describe('fieldSelectorPattern', () => {
  const accepts = (s: string) => new RegExp(fieldSelectorPattern).test(s);
  it("takes spec.nodeName with a node's name or none", () => {
    expect(accepts('spec.nodeName=kwok-node-1')).toBe(true);
    expect(accepts('spec.nodeName=ip-10-0-1-2.eu-west-1.compute.internal')).toBe(true);
    expect(accepts('spec.nodeName=')).toBe(true);
  });
  it('refuses other fields, operators, several terms and names that are no DNS names', () => {
    for (const s of [
      'status.phase=Running',
      'spec.nodeName!=a',
      'spec.nodeName==a',
      'spec.nodeName=a,status.phase=Running',
      'spec.nodeName=A',
      'spec.nodeName=-a',
      `spec.nodeName=${'a'.repeat(254)}`,
    ])
      expect(accepts(s), s).toBe(false);
  });
});

describe('fieldMatcher', () => {
  it('matches the pods bound to the node, or the unbound ones for an empty name', () => {
    const on = fieldMatcher(pods, 'spec.nodeName=n1');
    expect([pod('n1'), pod('n2'), pod()].map(on)).toEqual([true, false, false]);
    const unbound = fieldMatcher(pods, 'spec.nodeName=');
    expect([pod('n1'), pod()].map(unbound)).toEqual([false, true]);
  });
  it('refuses kinds other than core pods', () => {
    expect(() =>
      fieldMatcher({ group: 'apps', plural: 'deployments' } as ApiResource, 'spec.nodeName=a'),
    ).toThrow('query parameter "fieldSelector" applies to pods only, not deployments');
  });
});
