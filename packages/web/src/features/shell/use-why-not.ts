import { hubClusterId } from '../../api/client.ts';
import { type Act, whyNot } from './access.ts';
import { useCapabilities } from './use-capabilities.ts';

/** An object as the cards of its page know it: its Kind, API version and namespace. */
export interface ObjectScope {
  kind?: string;
  apiVersion?: string;
  namespace?: string;
}

/** `apps/v1` → `apps`, `v1` → the core group. */
const groupOf = (apiVersion: string | undefined) =>
  apiVersion?.includes('/') ? apiVersion.split('/')[0] : apiVersion === undefined ? undefined : '';

/**
 * Why the caller may not act on this object (`act`), or undefined when it may or the agent has not said: every
 * card of one object page asks the same capabilities (its kind, group and namespace), so the page makes one
 * request.
 */
export function useWhyNot(object: ObjectScope) {
  const access = useCapabilities({
    namespace: object.namespace,
    kind: object.kind,
    group: groupOf(object.apiVersion),
  }).data;
  return (act: Act, portForwardTarget?: string) =>
    whyNot(access, act, {
      kind: object.kind ?? '',
      throughHub: hubClusterId !== undefined,
      portForwardTarget,
    });
}
