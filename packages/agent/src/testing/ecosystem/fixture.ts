import type { KubeObject } from '@binnacle/common';
import type { Health } from '../../kube/health.ts';

/**
 * An ecosystem object in one state, with the health and why docs/integrations/<id>.md says that state is: the
 * unit tests judge `object` as it is; the integration tests create it on the test control plane (its spec valid
 * for the project's real CRD) and write `object.status` as its controller would.
 */
export interface StateFixture {
  state: 'healthy' | 'progressing' | 'failed';
  object: KubeObject;
  expected: { health: Health; reason?: string; from?: string };
}

const minutesAgo = (minutes: number) =>
  new Date(Date.now() - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A condition with every field the strictest CRD schemas require (metav1.Condition's). */
export const condition = (
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  extra: Record<string, unknown> = {},
) => ({ type, status, reason, message, lastTransitionTime: minutesAgo(5), ...extra });

/** What a fixture's metadata may carry beside its name and namespace. */
export type MetadataExtras = Pick<
  NonNullable<KubeObject['metadata']>,
  'labels' | 'annotations' | 'ownerReferences'
>;

export const metadata = (name: string, namespace?: string, extras: MetadataExtras = {}) => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  ...extras,
});

/** An object's status, only where a fixture gives one (a bare object is what a user creates). */
export const withStatus = (status: Record<string, unknown> | undefined) => (status ? { status } : {});

export const ago = minutesAgo;
/** A moment `days` ahead, as the API server serializes it. */
export const daysAhead = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
