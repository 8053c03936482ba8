import { describe, expect, it } from 'vitest';
import type { ApiResource } from './discovery.ts';
import { tierOf } from './tiers.ts';

const resource = (group: string, plural: string, verbs = ['list', 'watch']): ApiResource => ({
  group,
  version: 'v1',
  kind: plural,
  plural,
  singular: plural,
  namespaced: true,
  verbs,
  shortNames: [],
  categories: [],
});

describe('tierOf', () => {
  it('caches the built-in kinds the first screens need first, the other browsed ones after', () => {
    expect(tierOf(resource('apps', 'deployments'))).toBe('core');
    expect(tierOf(resource('', 'events'))).toBe('deferred');
  });

  it('leaves built-in kinds nobody browses and kinds that cannot be watched to a live LIST', () => {
    expect(tierOf(resource('coordination.k8s.io', 'leases'))).toBeUndefined();
    expect(tierOf(resource('metrics.k8s.io', 'pods', ['get', 'list']))).toBeUndefined();
  });

  it('caches custom resources, also the ecosystem kinds a SIG names under k8s.io (Gateway API)', () => {
    expect(tierOf(resource('cert-manager.io', 'certificates'))).toBe('custom');
    expect(tierOf(resource('kwok.x-k8s.io', 'portforwards'))).toBe('custom');
    expect(tierOf(resource('gateway.networking.k8s.io', 'httproutes'))).toBe('custom');
    expect(tierOf(resource('gateway.networking.k8s.io', 'gateways'))).toBe('custom');
  });
});
