import type { KubeObject } from '@binnacle/common';

export interface RecentEvent {
  type: string;
  reason: string;
  message: string;
  count: number;
  lastSeen?: string;
  /** Who reported it, in the words a reader knows (`Flux`, `kubelet`, `scheduler`, the component's own name). */
  source: string;
  involvedObject: { kind?: string; namespace?: string; name?: string };
}

/** Routine events of one source folded into one line; its newest events are listed when it is opened. */
export interface RoutineEvents {
  routine: true;
  source: string;
  /** How many events were folded. */
  count: number;
  /** Their reasons, each once, most frequent first. */
  reasons: string[];
  lastSeen?: string;
  events: RecentEvent[];
}

export type EventLine = RecentEvent | RoutineEvents;

/** Lines shown, and events a fold lists when opened. */
export const eventLines = 20;
/** How far back the folding looks: the newest events, enough that a flood does not push everything else out. */
const eventWindow = 500;
/** This many Normal events of one reason from one source are a flood, whatever the reason. */
const floodSize = 10;

/**
 * Normal reasons that say things go as they should and come again and again: a controller that reconciled, a
 * kubelet that pulled and started, a scheduler that placed. A rollout's scaling stays visible (ADR 0057).
 */
const routineReasons = new Set([
  'ReconciliationSucceeded',
  'ArtifactUpToDate',
  'Progressing',
  'GitOperationSucceeded',
  'ChartPullSucceeded',
  'Pulled',
  'Pulling',
  'Created',
  'Started',
  'Scheduled',
  'SuccessfulCreate',
  'SuccessfulDelete',
  'SawCompletedJob',
  'Completed',
  'LeaderElection',
]);

/** Reporting components by the tool a reader knows them as. */
const sourceNames: Record<string, string> = {
  'source-controller': 'Flux',
  'kustomize-controller': 'Flux',
  'helm-controller': 'Flux',
  'notification-controller': 'Flux',
  'image-reflector-controller': 'Flux',
  'image-automation-controller': 'Flux',
  'argocd-application-controller': 'Argo CD',
  'default-scheduler': 'scheduler',
};

export const eventTime = (e: KubeObject) =>
  String(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? '');

function sourceOf(e: KubeObject): string {
  const source = e.source as { component?: string } | undefined;
  const component = source?.component || String(e.reportingComponent ?? '') || 'unknown';
  return sourceNames[component] ?? component;
}

function recentEvent(e: KubeObject): RecentEvent {
  const involved = (e.involvedObject ?? {}) as { kind?: string; namespace?: string; name?: string };
  return {
    type: String(e.type ?? 'Normal'),
    reason: String(e.reason ?? ''),
    message: String(e.message ?? ''),
    count: Number(e.count ?? 1),
    lastSeen: eventTime(e) || undefined,
    source: sourceOf(e),
    involvedObject: { kind: involved.kind, namespace: involved.namespace, name: involved.name },
  };
}

/**
 * The newest events, one line each, except routine ones: Normal events of a routine reason, or of a reason one
 * source floods with, fold into one line per source where its newest one was. Warnings are never folded.
 */
export function recentEvents(events: KubeObject[]): EventLine[] {
  const newest = [...events]
    .sort((a, b) => eventTime(b).localeCompare(eventTime(a)))
    .slice(0, eventWindow)
    .map(recentEvent);
  const reasonKey = (e: RecentEvent) => `${e.source}\u0000${e.reason}`;
  const perReason = new Map<string, number>();
  for (const e of newest) {
    if (e.type === 'Normal') perReason.set(reasonKey(e), (perReason.get(reasonKey(e)) ?? 0) + 1);
  }
  const routine = (e: RecentEvent) =>
    e.type === 'Normal' && (routineReasons.has(e.reason) || (perReason.get(reasonKey(e)) ?? 0) >= floodSize);
  const folds = new Map<string, RecentEvent[]>();
  const lines: (RecentEvent | string)[] = [];
  for (const e of newest) {
    if (!routine(e)) {
      lines.push(e);
      continue;
    }
    const fold = folds.get(e.source);
    if (fold) fold.push(e);
    else {
      folds.set(e.source, [e]);
      lines.push(e.source);
    }
  }
  return lines.slice(0, eventLines).map((line) => {
    if (typeof line !== 'string') return line;
    const folded = folds.get(line) ?? [];
    // A lone routine event is shown as itself: a fold of one hides nothing.
    if (folded.length === 1) return folded[0] as RecentEvent;
    return {
      routine: true,
      source: line,
      count: folded.length,
      reasons: reasonsByFrequency(folded),
      lastSeen: folded[0]?.lastSeen,
      events: folded.slice(0, eventLines),
    };
  });
}

function reasonsByFrequency(events: RecentEvent[]): string[] {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.reason, (counts.get(e.reason) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([reason]) => reason);
}
