import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { parseSample, requestedOf } from './apiserver-metrics.ts';
import { apiLookup } from './lookup.ts';
import { currentRelease, nextRelease, readinessStatus } from './versions.ts';

describe('releases and where a removal stands', () => {
  it('reads the release from gitVersion (a provider suffix on minor does not count) and the next one', () => {
    expect(currentRelease({ gitVersion: 'v1.30.4-eks-a737599', major: '1', minor: '30+' })).toBe('1.30');
    expect(nextRelease('1.30')).toBe('1.31');
    expect(() => currentRelease(undefined)).toThrow(/not known yet/);
  });

  it('judges a removal against the current release and the target', () => {
    expect(readinessStatus('1.25', '1.30', '1.31')).toBe('already-removed');
    expect(readinessStatus('1.25', '1.24', '1.25')).toBe('removed-in-target');
    expect(readinessStatus('1.26', '1.24', '1.25')).toBe('deprecated');
    expect(readinessStatus(undefined, '1.24', '1.40')).toBe('deprecated');
    // A target below the current release: what is already gone stays so.
    expect(readinessStatus('1.32', '1.36', '1.33')).toBe('already-removed');
  });
});

describe('the lookup', () => {
  const crd: KubeObject = {
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { kind: 'Widget' },
      versions: [
        { name: 'v1alpha1', served: true, deprecated: true, deprecationWarning: 'use v1' },
        { name: 'v1beta1', served: false, deprecated: true },
        { name: 'v1', served: true, storage: true },
      ],
    },
  };
  const lookup = apiLookup([crd]);

  it("answers the table's removals, then a CRD's served deprecated versions", () => {
    expect(lookup('autoscaling/v2beta2', 'HorizontalPodAutoscaler')).toEqual({
      removedIn: '1.26',
      replacement: 'autoscaling/v2',
    });
    expect(lookup('policy/v1beta1', 'PodSecurityPolicy')).toEqual({
      removedIn: '1.25',
      note: 'the API has no replacement',
    });
    expect(lookup('example.com/v1alpha1', 'Widget')).toEqual({
      replacement: 'example.com/v1',
      note: 'use v1',
    });
    expect(lookup('example.com/v1beta1', 'Widget')).toBeUndefined();
    expect(lookup('apps/v1', 'Deployment')).toBeUndefined();
  });
});

describe("the API server's apiserver_requested_deprecated_apis", () => {
  it('reads a sample line with its labels, escaped quotes included', () => {
    const line =
      'apiserver_requested_deprecated_apis{group="flowcontrol.apiserver.k8s.io",removed_release="1.29",resource="flowschemas",subresource="st\\"atus",version="v1beta2"} 1';
    const sample = parseSample(line);
    expect(sample?.value).toBe(1);
    expect(requestedOf(sample?.labels ?? {})).toEqual({
      group: 'flowcontrol.apiserver.k8s.io',
      version: 'v1beta2',
      resource: 'flowschemas',
      subresource: 'st"atus',
      removedRelease: '1.29',
    });
    expect(parseSample('apiserver_request_total{code="200"} 5')).toBeUndefined();
    expect(requestedOf({ group: '', version: 'v1', resource: 'endpoints', removed_release: '' })).toEqual({
      group: '',
      version: 'v1',
      resource: 'endpoints',
    });
  });
});
