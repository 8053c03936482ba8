import { type Act, type Refusal, tableRefusal, whyNot } from '../shell/access.ts';
import { useCapabilities } from '../shell/use-capabilities.ts';

export interface TableAccess {
  /** The caller may list the kind nowhere in view: the table would only ever be empty. */
  refusal?: Refusal;
  /** The kind as the page's sentences name it. */
  plural: string;
  /** Listed only in some namespaces: the rows are of those. */
  partial: boolean;
  /** Why a bulk action may not be taken on the rows, when the capabilities can say for all of them. */
  unavailable: (act: Extract<Act, 'delete' | 'restart'>, kind: string) => string | undefined;
}

/**
 * What the caller may do with a kind's table, from `/api/capabilities?kind=` in the namespace in view. Across
 * namespaces a namespaced kind's rights are asked cluster-wide, which says nothing of one namespace's rows: then
 * bulk actions stay on and the API server decides each object.
 */
export function useTableAccess(kind: string, namespace: string | undefined): TableAccess {
  const access = useCapabilities({ namespace, kind }).data;
  const plural = /^[a-z]/.test(kind) ? kind : `${access?.kind?.kind ?? kind} objects`;
  const decisive = namespace !== undefined || access?.kind?.namespaced === false;
  return {
    refusal: access && tableRefusal(access, plural),
    plural,
    partial: access?.kind?.namespaced === true && access.kind.list === 'some',
    unavailable: (act, objectKind) => (decisive ? whyNot(access, act, { kind: objectKind }) : undefined),
  };
}
