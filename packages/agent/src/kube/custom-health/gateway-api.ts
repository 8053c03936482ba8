import type { KubeObject } from '@binnacle/common';
import { staleCondition } from './conventions.ts';
import {
  type Condition,
  conditionsIn,
  conditionsOf,
  find,
  type HealthWhy,
  noStatus,
  positive,
  record,
  records,
  text,
  verdict,
  worst,
} from './verdict.ts';

/**
 * Gateway API (sigs.k8s.io/gateway-api v1.6.3, apis/v1/gateway_types.go, gatewayclass_types.go,
 * shared_types.go): Accepted and Programmed on classes and gateways, Accepted and ResolvedRefs per parent on
 * routes. `Pending` is the reason the CRDs default a condition to before any controller looked.
 */
const progress = new Set(['Pending']);

const judge = (object: KubeObject, condition: Condition, from?: string) =>
  staleCondition(object, condition) ?? positive(condition, progress, from);

function decide(object: KubeObject, types: string[]): HealthWhy {
  const conditions = conditionsOf(object);
  const present = types.flatMap((type) => find(conditions, type) ?? []);
  return worst(present.map((c) => judge(object, c))) ?? noStatus('on this object');
}

/** A listener that is not accepted, cannot resolve its refs or conflicts: the gateway serves, that port does not. */
function listenerTrouble(gateway: KubeObject): HealthWhy | undefined {
  for (const listener of records(record(gateway.status).listeners)) {
    const name = text(listener.name) ?? '?';
    const conditions = conditionsIn(listener.conditions);
    const conflicted = find(conditions, 'Conflicted');
    if (conflicted?.status === 'True')
      return verdict('degraded', `listener ${name} Conflicted`, conflicted.reason, conflicted.message);
    const failing = conditions.find(
      (c) => ['Accepted', 'ResolvedRefs', 'Programmed'].includes(c.type) && c.status === 'False',
    );
    if (failing)
      return verdict('degraded', `listener ${name} ${failing.type}`, failing.reason, failing.message);
  }
  return undefined;
}

/** A route is healthy when every Gateway it names accepted it and every backend it names resolved. */
function routeHealth(route: KubeObject): HealthWhy {
  const parents = records(record(route.status).parents);
  if (parents.length === 0)
    return verdict('degraded', 'parents', 'Pending', 'no Gateway has reported on this route yet');
  const judged = parents.flatMap((parent) => {
    const ref = record(parent.parentRef);
    const name = `${text(ref.namespace) ? `${text(ref.namespace)}/` : ''}${text(ref.name) ?? '?'}`;
    const conditions = conditionsIn(parent.conditions);
    return ['Accepted', 'ResolvedRefs'].flatMap((type) => {
      const condition = find(conditions, type);
      return condition ? [judge(route, condition, `${type} by ${name}`)] : [];
    });
  });
  return worst(judged) ?? verdict('degraded', 'parents', 'Pending', 'no Gateway has accepted this route yet');
}

export function gatewayApiHealth(object: KubeObject): HealthWhy {
  switch (object.kind) {
    case 'GatewayClass':
      return decide(object, ['Accepted']);
    case 'Gateway': {
      const own = decide(object, ['Accepted', 'Programmed']);
      return own.health === 'healthy' ? (listenerTrouble(object) ?? own) : own;
    }
    case 'HTTPRoute':
    case 'GRPCRoute':
      return routeHealth(object);
    default:
      // ReferenceGrant: a permission, with no status to report.
      return verdict('healthy');
  }
}
