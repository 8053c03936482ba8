import { describe, expect, it } from 'vitest';
import { apiVersionOf, splitApiVersion } from './discovery.ts';

describe('splitApiVersion', () => {
  it('reads the core group, a named group and a version with a slash-free name', () => {
    expect(splitApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(splitApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
    expect(splitApiVersion('gateway.networking.k8s.io/v1beta1')).toEqual({
      group: 'gateway.networking.k8s.io',
      version: 'v1beta1',
    });
  });

  it('is the inverse of apiVersionOf', () => {
    for (const apiVersion of ['v1', 'apps/v1', 'argoproj.io/v1alpha1'])
      expect(apiVersionOf(splitApiVersion(apiVersion))).toBe(apiVersion);
  });
});
