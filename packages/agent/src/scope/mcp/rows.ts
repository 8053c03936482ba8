import type { KubeObject } from '@binnacle/common';
import { redactText } from '../redact.ts';

/** An event as a tool shows it: what, about which object, how often and when, its message scrubbed. */
export function eventRow(event: KubeObject) {
  const involved = (event.involvedObject ?? {}) as { kind?: string; namespace?: string; name?: string };
  return {
    type: event.type,
    reason: event.reason,
    object: `${involved.kind ?? ''} ${involved.namespace ? `${involved.namespace}/` : ''}${involved.name ?? ''}`,
    message: redactText(String(event.message ?? '')),
    count: event.count ?? 1,
    lastSeen: event.lastTimestamp ?? event.eventTime ?? event.metadata?.creationTimestamp,
  };
}
