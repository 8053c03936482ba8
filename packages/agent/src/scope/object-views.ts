import type { KubeObject } from '@binnacle/common';
import type { Impersonation } from '../kube/client.ts';

/** How much of an object an assistant is shown: one line, the fields its table shows, or all of it. */
type Verbosity = 'compact' | 'summary' | 'detail';

/**
 * Objects as an assistant reads them, redacted (ADR 0031): the ai feature provides them to the tools of other
 * features that show an object beside other things (diagnose).
 */
export interface ObjectViews {
  /** One object at a verbosity; the caller needs `get` on it. */
  get(
    caller: Impersonation | undefined,
    query: { kind: string; namespace: string; name: string; verbosity: Verbosity },
    now: number,
  ): Promise<{ resource: string | KubeObject }>;
  /** An object at a verbosity (compact: one line, `Kind namespace/name: state`). */
  view(object: KubeObject, verbosity: Verbosity, now: number): string | KubeObject;
}
