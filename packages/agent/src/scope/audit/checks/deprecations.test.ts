import { describe, expect, it } from 'vitest';
import { deprecationOf, deprecations } from './deprecations.ts';

describe('the table of removed API versions', () => {
  it('reads each line: release, apiVersion, replacement (the group’s v1 unless named, none for -), kinds', () => {
    expect(deprecationOf('extensions/v1beta1', 'Deployment')).toEqual({
      apiVersion: 'extensions/v1beta1',
      kinds: ['DaemonSet', 'Deployment', 'ReplicaSet'],
      removedIn: '1.16',
      replacement: 'apps/v1',
    });
    expect(deprecationOf('batch/v1beta1', 'CronJob')?.replacement).toBe('batch/v1');
    expect(deprecationOf('policy/v1beta1', 'PodSecurityPolicy')?.replacement).toBeUndefined();
    expect(deprecationOf('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema')?.removedIn).toBe('1.32');
    expect(deprecationOf('apps/v1', 'Deployment')).toBeUndefined();
  });

  it('has well-formed lines', () => {
    for (const d of deprecations) {
      expect(d.removedIn).toMatch(/^1\.\d+$/);
      expect(d.apiVersion).toMatch(/^[a-z0-9.]+\/v\d+(alpha|beta)\d+$/);
      expect(d.kinds.length).toBeGreaterThan(0);
      if (d.replacement !== undefined) expect(d.replacement).toMatch(/^[a-z0-9.]+\/v\d+(beta\d+)?$/);
    }
  });
});
