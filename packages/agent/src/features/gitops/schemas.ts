import { Type } from 'typebox';

const Text = Type.Optional(Type.String());
const Health = Type.String({
  description: 'healthy, degraded, unhealthy, unknown or missing (not in the cache)',
});

export const ApplicationSummary = Type.Object({
  kind: Type.Literal('Application'),
  namespace: Type.String(),
  name: Type.String(),
  project: Text,
  source: Type.Object({ repoURL: Text, path: Text, chart: Text, targetRevision: Text }),
  destination: Type.Object({ server: Text, name: Text, namespace: Text }),
  sync: Type.String({ description: "Argo CD's sync status: Synced, OutOfSync or Unknown" }),
  revision: Text,
  health: Type.String({
    description: "Argo CD's health: Healthy, Progressing, Degraded, Suspended, Missing, Unknown",
  }),
  healthMessage: Text,
  automated: Type.Union([
    Type.Object({ enabled: Type.Boolean(), prune: Type.Boolean(), selfHeal: Type.Boolean() }),
    Type.Null(),
  ]),
  operation: Type.Object({
    running: Type.Boolean({ description: 'an operation is set (requested or running)' }),
    phase: Text,
    message: Text,
    startedAt: Text,
    finishedAt: Text,
  }),
  outOfSync: Type.Integer(),
  resourceCount: Type.Integer(),
});

export const FluxSummary = Type.Object({
  kind: Type.String(),
  namespace: Type.String(),
  name: Type.String(),
  ready: Type.String({ description: 'the Ready condition: True, False or Unknown' }),
  reason: Text,
  message: Text,
  reconciling: Type.Boolean(),
  suspended: Type.Boolean(),
  revision: Text,
  lastHandledReconcileAt: Text,
  source: Type.Optional(Type.Object({ kind: Text, name: Text, namespace: Text })),
});

const ManagedResource = Type.Object({
  group: Type.String(),
  kind: Type.String(),
  namespace: Text,
  name: Type.String(),
  sync: Type.Optional(Type.String({ description: "the tool's sync state of it (Argo CD)" })),
  toolHealth: Type.Optional(Type.String({ description: "the tool's health of it (Argo CD)" })),
  live: Health,
});

const Condition = Type.Object(
  { type: Type.String(), status: Text, reason: Text, message: Text, lastTransitionTime: Text },
  { additionalProperties: true },
);

export const ApplicationDetail = Type.Object({
  ...ApplicationSummary.properties,
  resources: Type.Array(ManagedResource),
  drift: Type.Array(ManagedResource, { description: 'the objects Argo CD reports OutOfSync' }),
  history: Type.Array(Type.Object({ id: Type.Integer(), revision: Text, deployedAt: Text })),
  conditions: Type.Array(Condition),
});

export const FluxDetail = Type.Object({
  ...FluxSummary.properties,
  conditions: Type.Array(Condition),
  resources: Type.Array(ManagedResource),
  drift: Type.Array(ManagedResource, { description: 'applied objects that are gone' }),
});

/** What sync-with-source answers beyond the action's message: the sources it reconciled first, in order. */
export const SyncedSources = {
  sources: Type.Array(
    Type.Object({
      kind: Type.String(),
      namespace: Type.String(),
      name: Type.String(),
      requestedAt: Type.String({ description: 'the reconcile.fluxcd.io/requestedAt the agent wrote on it' }),
    }),
  ),
};
