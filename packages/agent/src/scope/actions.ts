import { randomUUID } from 'node:crypto';
import { type AppError, toAppError } from '@binnacle/common/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Impersonation } from '../kube/client.ts';
import type { Cluster } from '../kube/cluster.ts';
import type { ChangeRecorder } from './timeline/recorder.ts';
import type { Actor } from './timeline/types.ts';

/** What recording an action reads: the served cluster (the agent's own identity), its timeline, the log. */
export interface ActionRecording {
  readonly cluster: Cluster;
  readonly timeline: ChangeRecorder;
  log: FastifyBaseLogger;
}

/** The object an action is about. */
export interface ActionTarget {
  kind: string;
  group: string;
  namespace?: string;
  name: string;
  uid?: string;
}

export interface ActionOutcome {
  /** What happened, in words: the answer's message and the timeline entry's. */
  message: string;
  /**
   * Set when the action changed something but could not finish (a drain that left pods behind): it is recorded
   * as a warning, logged as partial, and then thrown as the answer.
   */
  incomplete?: AppError;
  /** The uid of the object, once the work has seen it (it ties the timeline entry to the object's history). */
  uid?: string;
}

type Outcome = 'succeeded' | 'partial' | 'failed' | 'dry-run';

const reasonOf = (action: string) =>
  action.replace(/(^|-)([a-z])/g, (_match, _dash: string, letter: string) => letter.toUpperCase());

/** Who acts: the signed-in caller the agent impersonates, else the agent's own identity (ADR 0072). */
async function actorOf(ctx: ActionRecording, caller: Impersonation | undefined): Promise<Actor> {
  const { user, groups } = caller ?? (await ctx.cluster.identity());
  return { user, groups: [...groups], identity: caller ? 'caller' : 'agent' };
}

/** One structured audit log line: who, what, outcome, error code. */
function audit(
  ctx: ActionRecording,
  actor: Actor,
  action: string,
  target: ActionTarget,
  outcome: Outcome,
  detail: { code?: string; message: string },
): void {
  ctx.log.info(
    {
      audit: {
        action,
        user: actor.user,
        groups: actor.groups,
        identity: actor.identity,
        kind: target.kind,
        group: target.group,
        namespace: target.namespace,
        name: target.name,
        outcome,
        ...detail,
      },
    },
    `audit: ${action} ${target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name} by ${actor.user}: ${outcome}`,
  );
}

/**
 * The audit line of an action refused before its work began (the dry run of every document of an apply, which
 * writes nothing when one fails).
 */
export async function auditRefusal(
  ctx: ActionRecording,
  caller: Impersonation | undefined,
  action: string,
  target: ActionTarget,
  error: unknown,
): Promise<void> {
  auditFailure(ctx, await actorOf(ctx, caller), action, target, error);
}

function auditFailure(
  ctx: ActionRecording,
  actor: Actor,
  action: string,
  target: ActionTarget,
  error: unknown,
) {
  const failure = toAppError(error);
  audit(ctx, actor, action, target, 'failed', { code: failure.code, message: failure.message });
}

/**
 * Runs a change a person asked for (apply, delete, restart, scale, drain …) and leaves two traces of it: one
 * structured audit log line whatever happened (who, what, outcome, error code), and — when something changed — a
 * timeline entry naming who did it. The actor is the signed-in caller, or the agent's own identity when nobody is
 * signed in. The answer is the work's, with the target's kind, namespace and name.
 */
export async function performAction<T extends ActionOutcome>(
  ctx: ActionRecording,
  caller: Impersonation | undefined,
  action: string,
  target: ActionTarget,
  work: () => Promise<T>,
  options: { dryRun?: boolean } = {},
): Promise<Omit<T, 'incomplete' | 'uid'> & { kind: string; namespace?: string; name: string }> {
  const actor = await actorOf(ctx, caller);
  let outcome: T;
  try {
    outcome = await work();
  } catch (error) {
    auditFailure(ctx, actor, action, target, error);
    throw error;
  }
  const { incomplete, uid, ...answer } = outcome;
  audit(ctx, actor, action, target, options.dryRun ? 'dry-run' : incomplete ? 'partial' : 'succeeded', {
    code: incomplete?.code,
    message: incomplete?.message ?? outcome.message,
  });
  // A dry run is audited (someone asked) but changed nothing, so the timeline does not show it.
  if (!options.dryRun)
    await ctx.timeline.record({
      key: `action:${randomUUID()}`,
      // When it finished: the entry tells the outcome, known only then.
      timestamp: new Date().toISOString(),
      source: 'action',
      eventType: incomplete ? 'Warning' : 'Normal',
      kind: target.kind,
      group: target.group,
      namespace: target.namespace,
      name: target.name,
      uid: uid ?? target.uid,
      reason: reasonOf(action),
      message: incomplete?.message ?? outcome.message,
      actor,
    });
  if (incomplete) throw incomplete;
  return { ...answer, kind: target.kind, namespace: target.namespace, name: target.name };
}

/**
 * Route hook for actions whose body fields are all optional: no body at all means `{}`, so `curl -X POST` works
 * while the schema still refuses unknown fields.
 */
export function bodyMayBeEmpty(request: { body: unknown }, _reply: unknown, done: () => void): void {
  request.body ??= {};
  done();
}
