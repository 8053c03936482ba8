import { metadata, type StateFixture } from './fixture.ts';

/**
 * Istio objects in each state, as istiod's status writer reports its analysis (istio.io/api v1.32.0,
 * analysis/v1alpha1/message.proto `AnalysisMessageBase`; codes from istio's galley/pkg/config/analysis/msg,
 * IST0101 ReferencedResourceNotFound).
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
              type: { code: 'IST0101', name: 'ReferencedResourceNotFound' },
            },
          ],
        },
      },
      expected: { health: 'unhealthy', from: 'validationMessages', reason: 'ReferencedResourceNotFound' },
    },
  ];
}
