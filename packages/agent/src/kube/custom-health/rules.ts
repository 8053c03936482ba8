import type { KubeObject } from '@binnacle/common';
import { certManagerHealth } from './cert-manager.ts';
import { cloudNativePgHealth } from './cloudnative-pg.ts';
import { lifecycleHealth } from './conventions.ts';
import { crossplaneHealth } from './crossplane.ts';
import { gatewayApiHealth } from './gateway-api.ts';
import { istioHealth } from './istio.ts';
import { karpenterHealth } from './karpenter.ts';
import { kedaHealth } from './keda.ts';
import { knativeHealth } from './knative.ts';
import { kyvernoHealth } from './kyverno.ts';
import { veleroHealth } from './velero.ts';
import type { HealthWhy } from './verdict.ts';

/** Each integration's own rules, by its id in `@binnacle/common`'s ecosystem registry (docs/integrations/). */
const rules: Record<string, (object: KubeObject) => HealthWhy> = {
  'gateway-api': gatewayApiHealth,
  'cert-manager': certManagerHealth,
  keda: kedaHealth,
  karpenter: karpenterHealth,
  knative: knativeHealth,
  crossplane: crossplaneHealth,
  kyverno: kyvernoHealth,
  velero: veleroHealth,
  'cloudnative-pg': cloudNativePgHealth,
  istio: istioHealth,
};

/** An integration kind's health: being deleted or behind its generation first, as for every object. */
export function integrationHealth(id: string, object: KubeObject): HealthWhy | undefined {
  const rule = rules[id];
  return rule ? (lifecycleHealth(object) ?? rule(object)) : undefined;
}
