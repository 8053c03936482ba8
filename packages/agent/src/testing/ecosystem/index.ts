import { certManagerStates } from './cert-manager.ts';
import { cloudNativePgStates } from './cloudnative-pg.ts';
import { crossplaneStates } from './crossplane.ts';
import type { StateFixture } from './fixture.ts';
import { gatewayApiStates } from './gateway-api.ts';
import { istioStates } from './istio.ts';
import { karpenterStates } from './karpenter.ts';
import { kedaStates } from './keda.ts';
import { knativeStates } from './knative.ts';
import { kyvernoStates } from './kyverno.ts';
import { veleroStates } from './velero.ts';

export type { StateFixture } from './fixture.ts';

/** Every integration's objects in healthy, progressing and failed states, by integration id. */
export function ecosystemStates(namespace: string, prefix: string): Record<string, StateFixture[]> {
  return {
    'gateway-api': gatewayApiStates(namespace, prefix),
    'cert-manager': certManagerStates(namespace, prefix),
    keda: kedaStates(namespace, prefix),
    karpenter: karpenterStates(prefix),
    knative: knativeStates(namespace, prefix),
    crossplane: crossplaneStates(prefix),
    kyverno: kyvernoStates(namespace, prefix),
    velero: veleroStates(namespace, prefix),
    'cloudnative-pg': cloudNativePgStates(namespace, prefix),
    istio: istioStates(namespace, prefix),
  };
}
