import { callerPattern, type KubeObject, keepMatching, PatternError } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import { redactText } from '../../scope/redact.ts';

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

/**
 * The items whose line matches grep (all without one). grep is RE2, case-insensitive, its text taken literally
 * when it does not compile (ADR 0045); a pattern that costs more than its budget is the caller's 400.
 */
export async function grepped<T>(
  items: readonly T[],
  grep: string | undefined,
  lineOf: (item: T) => string,
): Promise<T[]> {
  if (!grep) return [...items];
  try {
    return await keepMatching(items, callerPattern(grep), lineOf);
  } catch (error) {
    if (error instanceof PatternError) throw badRequest(`grep: ${error.message}`);
    throw error;
  }
}

/** Log lines as a tool answers them: those matching grep (all without one), credentials scrubbed. */
export async function shownLines(lines: string[], grep?: string): Promise<string[]> {
  return (await grepped(lines, grep, (line) => line)).map(redactText);
}

/** A topology node as one line: `deployment/shop/web (healthy)`, a group with its count: `… (healthy) × 40`. */
export const nodeLine = (node: { id: string; status: string; data?: Record<string, unknown> }) =>
  `${node.id} (${node.status})${node.data?.count === undefined ? '' : ` × ${String(node.data.count)}`}`;

const reducedTo = {
  'pod-groups': "each owner's pods are one podgroup",
  kinds: 'each namespace is one kindgroup per kind, counting its objects',
  namespaces: 'one node per namespace',
};

/** What a whole-cluster topology too big to draw left out, and how to see it all. */
export const reducedNote = (graph: { levelOfDetail: keyof typeof reducedTo; leftOutKinds?: string[] }) =>
  `too big to draw object by object: ${reducedTo[graph.levelOfDetail]}${
    graph.leftOutKinds?.length ? `; ${graph.leftOutKinds.join(', ')} left out` : ''
  }; ask for one namespace to see each object`;

/** A topology edge as one line: `deployment/shop/web -manages-> pod/shop/web-1`. */
export const edgeLine = (edge: { source: string; type: string; target: string }) =>
  `${edge.source} -${edge.type}-> ${edge.target}`;
