/**
 * `action`: something a person did through Binnacle (restart, scale, drain …), recorded with who did it.
 * `agent`: the agent itself, e.g. the span it did not watch the cluster (stopped), found on a restart.
 */
export type TimelineSource = 'informer' | 'k8s_event' | 'historical' | 'action' | 'agent';
export type TimelineEventType = 'add' | 'update' | 'delete' | 'Normal' | 'Warning';

import type { Health } from '../../kube/health.ts';
import type { ExcludedNamePattern } from './noise.ts';

export type { Health };

export interface FieldChange {
  path: string;
  old?: unknown;
  new?: unknown;
}

export interface Diff {
  fields: FieldChange[];
  summary: string;
}

/**
 * Who made a change through Binnacle. `caller`: the person signed in (to the hub, which forwarded them, or to the
 * agent with `--auth-mode proxy|oidc`), whom the agent impersonated. `agent`: nobody was signed in, so the
 * agent's own Kubernetes identity made it (its kubeconfig user or service account: whoever runs a local agent).
 * Entries recorded before the field existed have none.
 */
export interface Actor {
  user: string;
  groups?: string[];
  identity?: 'caller' | 'agent';
}

export interface OwnerRef {
  kind: string;
  name: string;
  uid?: string;
}

/** One entry of the change timeline, as stored and served. */
export interface TimelineEvent {
  /**
   * The number the recorder gave it: strictly increasing in the order recorded, with gaps where the store
   * already had an entry (ADR 0073); the cursor for deltas (`since_seq`, SSE `Last-Event-ID`).
   */
  seq: number;
  /**
   * When it happened, as precisely as its source says (RFC 3339, milliseconds): the time the agent saw an object
   * change or an action finish, a Kubernetes Event's last occurrence (whole seconds), an object's own metadata
   * time. Not the order of recording: an Event may arrive late, a kind's history when it first syncs.
   */
  timestamp: string;
  source: TimelineSource;
  eventType: TimelineEventType;
  kind: string;
  group: string;
  namespace?: string;
  name: string;
  uid?: string;
  reason?: string;
  message?: string;
  diff?: Diff;
  health?: Health;
  owner?: OwnerRef;
  count?: number;
  /** For `action` entries: who did it. */
  actor?: Actor;
}

/** An event before the recorder numbers it; `key` makes recording idempotent (restarts, replays). */
export type NewTimelineEvent = Omit<TimelineEvent, 'seq'> & { key: string };

/** An event the recorder numbered: the store keeps it under its `seq` or, when the key is known, not at all. */
export type NumberedTimelineEvent = TimelineEvent & { key: string };

export interface TimelineQuery {
  /** Undefined: every namespace; empty: none. */
  namespaces?: string[];
  kinds?: string[];
  name?: string;
  uids?: string[];
  ownerUids?: string[];
  /** Only events at or after this time. */
  since?: string;
  /** Only events with a larger seq (deltas). */
  sinceSeq?: number;
  eventTypes?: TimelineEventType[];
  sources?: TimelineSource[];
  excludeKinds?: string[];
  /** Names matching any of these regular expressions are left out: our constants only, never a caller's. */
  excludeNames?: readonly ExcludedNamePattern[];
  /** Leave out events of objects that have an owner (ReplicaSets, Pods of workloads). */
  topLevelOnly?: boolean;
  limit: number;
  /**
   * `time` (default): newest first by `timestamp`, entries of one instant newest recorded first — the order of
   * the timeline. `recorded`: oldest first by seq, the order entries were recorded in (deltas, stream replays).
   */
  order?: 'time' | 'recorded';
}

export interface TimelineStats {
  /** Changes when the store starts over (a new memory store, a new database): cursors from another epoch are stale. */
  epoch: string;
  count: number;
  oldestSeq: number;
  /** The highest seq the store was given, kept or not (a known key): the recorder numbers on from it. */
  latestSeq: number;
  /**
   * Prunes (retention, size cap; scheduled or on a write) that failed since the store opened, each logged; the
   * ring never fails.
   */
  pruneFailures: number;
}

/** The one interface both backends implement; a shared conformance suite runs against each. */
export interface TimelineStore {
  readonly kind: 'memory' | 'sqlite';
  /**
   * Keeps the events whose key is new, each under the seq the recorder gave it (increasing, above `latestSeq`:
   * ADR 0073); returns the ones it kept. A known key leaves a gap in the numbers.
   */
  append(events: NumberedTimelineEvent[]): Promise<TimelineEvent[]>;
  query(query: TimelineQuery): Promise<TimelineEvent[]>;
  stats(): Promise<TimelineStats>;
  close(): Promise<void>;
}
