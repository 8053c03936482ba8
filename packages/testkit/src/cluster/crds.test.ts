import { describe, expect, it } from 'vitest';
import { crdEstablished } from './crds.ts';
import { appliedNames } from './kubectl.ts';

const crd = (status?: object) => ({
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Widget', plural: 'widgets' },
    scope: 'Namespaced',
    versions: [],
  },
  status,
});

describe('crdEstablished', () => {
  it('reads a CRD whose status the API server has not written yet as not established, not as an error', () => {
    expect(() => crdEstablished(crd())).toThrow('widgets.example.com has no Established condition yet');
    expect(() => crdEstablished(crd({ storedVersions: ['v1'] }))).toThrow('no Established condition yet');
  });

  it('says why a CRD is not established', () => {
    const names = {
      type: 'Established',
      status: 'False',
      reason: 'Installing',
      message: 'the initial names',
    };
    expect(() => crdEstablished(crd({ conditions: [names] }))).toThrow(
      'widgets.example.com Established=False (Installing: the initial names)',
    );
  });

  it('passes once Established is True', () => {
    expect(crdEstablished(crd({ conditions: [{ type: 'Established', status: 'True' }] }))).toBe(true);
  });
});

describe('appliedNames', () => {
  it('takes the object names out of kubectl -o name output', () => {
    const output =
      'customresourcedefinition.apiextensions.k8s.io/helmreleases.helm.toolkit.fluxcd.io\n' +
      'customresourcedefinition.apiextensions.k8s.io/portforwards.kwok.x-k8s.io\n';
    expect(appliedNames(output)).toEqual([
      'helmreleases.helm.toolkit.fluxcd.io',
      'portforwards.kwok.x-k8s.io',
    ]);
  });
});
