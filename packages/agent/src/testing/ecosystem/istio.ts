import { metadata, type StateFixture } from './fixture.ts';

/**
 * Istio objects in each state, as istiod's in-cluster analysis writes them (istio.io/api v1.32.0,
 * analysis/v1alpha1/message.proto `AnalysisMessageBase`): istio's pkg/config/analysis/incluster/controller.go
 * stores `msg.AnalysisMessageBase()` (pkg/config/analysis/diag/message.go), which sets the type's `code` only (no
 * `name`), the level in capitals and `<pkg/url ConfigAnalysis>/<code in lower case>/` as the documentation URL.
 * IST0101 is ReferencedResourceNotFound (pkg/config/analysis/msg/messages.yaml). istio/istio tags its releases
 * without the `v` Go needs, so the module proxy holds no release of it to pin: read on its default branch.
 */
const api = 'networking.istio.io/v1';

export function istioStates(namespace: string, prefix: string): StateFixture[] {
  return [
    {
      state: 'healthy',
      object: {
        apiVersion: api,
        kind: 'DestinationRule',
        metadata: metadata(`${prefix}-reviews`, namespace),
        spec: { host: 'reviews', subsets: [{ name: 'v1', labels: { version: 'v1' } }] },
      },
      expected: { health: 'healthy' },
    },
    {
      state: 'healthy',
      object: {
        apiVersion: api,
        kind: 'VirtualService',
        metadata: metadata(`${prefix}-reviews`, namespace),
        spec: { hosts: ['reviews'], http: [{ route: [{ destination: { host: 'reviews', subset: 'v1' } }] }] },
      },
      expected: { health: 'healthy' },
    },
    {
      state: 'failed',
      object: {
        apiVersion: api,
        kind: 'VirtualService',
        metadata: metadata(`${prefix}-ratings`, namespace),
        spec: { hosts: ['ratings'], http: [{ route: [{ destination: { host: 'ratings', subset: 'v9' } }] }] },
        status: {
          validationMessages: [
            {
              documentationUrl: 'https://istio.io/v1.32/docs/reference/config/analysis/ist0101/',
              level: 'ERROR',
              type: { code: 'IST0101' },
            },
          ],
        },
      },
      expected: { health: 'unhealthy', from: 'validationMessages', reason: 'IST0101' },
    },
  ];
}
