import type { KubeObject } from '../../kube/objects.ts';
import { redactText } from '../ai/redact.ts';

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

/** A grep pattern: a regular expression when it is one, else the text itself; case-insensitive. */
export function grepOf(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'i');
  } catch {
    return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  }
}

/** Log lines as a tool answers them: those matching grep (all without one), credentials scrubbed. */
export function shownLines(lines: string[], grep?: string): string[] {
  const match = grep ? grepOf(grep) : undefined;
  return lines.filter((line) => !match || match.test(line)).map(redactText);
}

/** A topology node as one line: `deployment/shop/web (healthy)`. */
export const nodeLine = (node: { id: string; status: string }) => `${node.id} (${node.status})`;

/** A topology edge as one line: `deployment/shop/web -manages-> pod/shop/web-1`. */
export const edgeLine = (edge: { source: string; type: string; target: string }) =>
  `${edge.source} -${edge.type}-> ${edge.target}`;
