import type { KubeObject } from '@binnacle/common';
import { compactLine } from '../../kube/object-line.ts';
import { summarize } from '../../kube/object-summary.ts';
import { redactObject } from '../../scope/redact.ts';

/**
 * How much of an object a model gets: `compact`, one line of what matters; `summary`, identifying metadata and
 * the fields a table shows; `detail`, the whole object. Every level is redacted.
 */
export type Verbosity = 'compact' | 'summary' | 'detail';
export const verbosities: readonly Verbosity[] = ['compact', 'summary', 'detail'];

/** An object at a verbosity, redacted: a line for `compact`, an object otherwise. */
export function view(object: KubeObject, verbosity: Verbosity, now: number): string | KubeObject {
  if (verbosity === 'compact') return compactLine(redactObject(object), now);
  const shown = redactObject(verbosity === 'summary' ? summarize(object) : object);
  if (verbosity === 'summary' && shown.metadata) {
    const { uid: _uid, resourceVersion: _rv, generation: _generation, ...metadata } = shown.metadata;
    return { ...shown, metadata };
  }
  return shown;
}
