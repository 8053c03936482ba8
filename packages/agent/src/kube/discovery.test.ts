import { describe, expect, it } from 'vitest';
import { apiVersionOf, discover, splitApiVersion } from './discovery.ts';
import { fakeApiServer } from './fake-api-server.ts';

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

describe('discover', () => {
  const resource = (plural: string, kind: string) => ({
    resource: plural,
    responseKind: { kind },
    scope: 'Cluster',
    verbs: ['list', 'watch'],
  });
  // Crossplane v2: the XRD served at v2 (preferred) and v1, its Composition at v1 alone.
  const crossplane = {
    metadata: { name: 'apiextensions.crossplane.io' },
    versions: [
      { version: 'v2', resources: [resource('compositeresourcedefinitions', 'CompositeResourceDefinition')] },
      {
        version: 'v1',
        resources: [
          resource('compositeresourcedefinitions', 'CompositeResourceDefinition'),
          resource('compositions', 'Composition'),
        ],
      },
    ],
  };

  /** What `discover` finds on an API server answering each path from `answers` (`{}` for any other). */
  async function discovered(answers: (path: string) => unknown): Promise<string[]> {
    const fake = await fakeApiServer((_req, res, url) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answers(url.pathname) ?? {}));
    });
    try {
      return (await discover(fake.client)).map((r) => `${r.kind} ${r.group}/${r.version}`);
    } finally {
      await fake.close();
    }
  }
  const both = [
    'CompositeResourceDefinition apiextensions.crossplane.io/v2',
    'Composition apiextensions.crossplane.io/v1',
  ];

  it('reads each kind at the first version that serves it, a kind only an older version serves too', async () => {
    const found = await discovered((path) => ({
      kind: 'APIGroupDiscoveryList',
      items: path === '/apis' ? [crossplane] : [],
    }));
    expect(found).toEqual(both);
  });

  it('does the same from the per-version lists of an API server without aggregated discovery', async () => {
    const lists: Record<string, unknown> = {
      '/api/v1': { resources: [] },
      '/apis': {
        groups: [
          {
            name: 'apiextensions.crossplane.io',
            preferredVersion: { version: 'v2' },
            versions: [
              { groupVersion: 'apiextensions.crossplane.io/v2' },
              { groupVersion: 'apiextensions.crossplane.io/v1' },
            ],
          },
        ],
      },
      ...Object.fromEntries(
        crossplane.versions.map((v) => [
          `/apis/apiextensions.crossplane.io/${v.version}`,
          {
            resources: v.resources.map((r) => ({
              name: r.resource,
              kind: r.responseKind.kind,
              namespaced: false,
            })),
          },
        ]),
      ),
    };
    expect(await discovered((path) => lists[path])).toEqual(both);
  });
});
