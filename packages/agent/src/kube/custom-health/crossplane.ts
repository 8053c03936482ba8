import type { KubeObject } from '@binnacle/common';
import { conditionsOf, find, type HealthWhy, noStatus, positive, verdict, worst } from './verdict.ts';

/**
 * Crossplane v2.1.0: a CompositeResourceDefinition is Established once its CRD serves, and Offered once the
 * claim CRD does (apis/apiextensions/v1/conditions.go, internal/controller/apiextensions/definition/reconciler.go);
 * a CRD it cannot make is only a Warning event, so such an XRD has no status. A Composition has no status (its
 * revisions are the history). Composites, claims and managed resources live in their own groups and carry Synced and Ready
 * (crossplane-runtime apis/common/v1/condition.go: Ready reasons Available, Unavailable, Creating, Deleting):
 * the conventions read them for any object with a Synced condition.
 */
const none = new Set<string>();

export function crossplaneHealth(object: KubeObject): HealthWhy {
  if (object.kind === 'Composition') return verdict('healthy');
  const conditions = conditionsOf(object);
  const present = ['Established', 'Offered'].flatMap((type) => find(conditions, type) ?? []);
  return worst(present.map((c) => positive(c, none))) ?? noStatus('on this definition');
}
