import { Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import { fitLimits } from './fit-service.ts';

const Switch = (description: string, fallback: boolean) =>
  Type.Optional(Type.Boolean({ default: fallback, description }));

export const FitQuery = Query({
  nodes: Type.Optional(
    Type.String({
      minLength: 1,
      // A URL's bound, not the names': the request line and headers fit in Node's 16 KB.
      maxLength: 4096,
      description: `comma-separated node names, at most ${fitLimits.nodes}; or labelSelector`,
    }),
  ),
  labelSelector: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description: `the nodes whose labels match, at most ${fitLimits.nodes}`,
    }),
  ),
  ignoreDaemonSets: Switch('as the drain: leave DaemonSet pods on the node', true),
  deleteEmptyDirData: Switch('as the drain: evict pods with emptyDir volumes', false),
  force: Switch('as the drain: evict pods no controller recreates', false),
});

const FitPod = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  node: Type.String({ description: 'the node it runs on now' }),
  outcome: Type.Enum(['placed', 'pending', 'blocked', 'not-recreated', 'skipped', 'refused'], {
    description:
      "placed: its replacement fits on `target`; pending: it fits on no node (`reason` is the scheduler's message); blocked: a PodDisruptionBudget keeps it on its node; not-recreated: nothing recreates it; skipped: the drain leaves it (DaemonSet, mirror pod); refused: it stops the drain (needs a switch)",
  }),
  target: Type.Optional(Type.String({ description: 'the first node by name that passes every filter' })),
  reason: Type.Optional(Type.String()),
});

const Budget = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  disruptionsAllowed: Type.Integer(),
  evicted: Type.Integer({ description: 'its pods the drain evicts' }),
  verdict: Type.Enum(['ok', 'waits', 'blocks'], {
    description:
      'ok: all may go at once; waits: evictions wait for replacements to become ready; blocks: some pods never may go',
  }),
  reason: Type.String(),
});

const Batch = Type.Object({
  nodes: Type.Array(Type.String()),
  evictions: Type.Integer(),
  waitsFor: Type.Optional(
    Type.Array(Type.String(), { description: 'budgets this node asks more of than they allow at once' }),
  ),
});

export const DrainFitAnswer = Type.Object({
  nodes: Type.Array(Type.String()),
  fits: Type.Boolean({
    description:
      'every evicted pod runs again (or is meant to go), no budget blocks, no pod refuses the drain',
  }),
  summary: Type.String(),
  pods: Type.Array(FitPod),
  budgets: Type.Array(Budget),
  sequence: Type.Object({
    possible: Type.Boolean(),
    batches: Type.Array(Batch, { description: 'nodes drained together, in order' }),
    reason: Type.Optional(Type.String({ description: 'why no order keeps every budget and every pod' })),
  }),
});
