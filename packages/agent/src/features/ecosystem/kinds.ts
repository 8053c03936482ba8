import {
  type ActionKind,
  actionKindOf,
  type EcosystemAction,
  ecosystemActionKinds,
  qualifiedKind,
} from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import { type ApiResource, clusterScoped } from '../../kube/discovery.ts';

/** An object an action is about: its kind as the cluster serves it, where it is, its name. */
export interface EcosystemTarget {
  kind: ActionKind;
  resource: ApiResource;
  namespace?: string;
  name: string;
}

export const labelOf = (t: Pick<EcosystemTarget, 'kind' | 'namespace' | 'name'>) =>
  `${t.kind.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}`;

/**
 * The target the route's `{kind}`, `{namespace}` and `{name}` name, among the kinds the cluster serves: a kind the action does not take is 400
 * `unknown_kind` listing those it does; one the cluster does not serve (the project is not installed) is 404
 * `kind_not_served`; the namespace must be `_` exactly for a cluster-scoped kind.
 */
export function actionTarget(
  served: readonly ApiResource[],
  action: EcosystemAction,
  text: string,
  namespace: string,
  name: string,
): EcosystemTarget {
  const kind = actionKindOf(action, text);
  if (!kind)
    throw new AppError(
      'unknown_kind',
      `${action} takes ${ecosystemActionKinds[action].map((k) => `${qualifiedKind(k)} (${k.kind})`).join(' or ')}, not "${text}"`,
    );
  const resource = served.find((r) => r.group === kind.group && r.kind === kind.kind);
  if (!resource)
    throw new AppError(
      'kind_not_served',
      `the cluster serves no ${kind.kind} of ${kind.group}: ${kind.integration}'s CRDs are not installed`,
    );
  if (kind.namespaced === (namespace === clusterScoped))
    throw new AppError(
      'invalid_request',
      kind.namespaced
        ? `${kind.plural} are namespaced: put the namespace in the path instead of "${clusterScoped}"`
        : `${kind.plural} are cluster-scoped: use "${clusterScoped}" as the namespace`,
    );
  return { kind, resource, namespace: kind.namespaced ? namespace : undefined, name };
}
