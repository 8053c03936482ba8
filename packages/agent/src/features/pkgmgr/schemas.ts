import { Type } from 'typebox';
import { NamespaceParam } from '../../http/schemas.ts';

export const Release = Type.Object({
  name: Type.String(),
  namespace: Type.String(),
  revision: Type.Integer(),
  status: Type.String(),
  chart: Type.String(),
  chartVersion: Type.String(),
  appVersion: Type.Optional(Type.String()),
  updated: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

export const Values = Type.Record(Type.String(), Type.Unknown());
/** Helm numbers revisions from 1; the bound keeps a huge query value from reaching the release store. */
export const Revision = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const ReleaseParams = Type.Object({
  namespace: NamespaceParam,
  // Helm's own limit for release names (53 characters, a DNS-1123 label).
  name: Type.String({ minLength: 1, maxLength: 53, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' }),
});
export const Releases = Type.Object({
  releases: Type.Array(Release),
  total: Type.Integer(),
  byStatus: Type.Record(Type.String(), Type.Integer()),
  unreadable: Type.Array(
    Type.Object({ namespace: Type.String(), name: Type.String(), error: Type.String() }),
  ),
});
export const ReleaseDetail = Type.Intersect([
  Release,
  Type.Object({
    notes: Type.String(),
    history: Type.Array(Type.Omit(Release, ['name', 'namespace']), {
      description: 'every kept revision, newest first',
    }),
    resources: Type.Array(
      Type.Object({
        kind: Type.String(),
        apiVersion: Type.String(),
        namespace: Type.Optional(Type.String()),
        name: Type.String(),
        status: Type.String(),
      }),
    ),
    hooks: Type.Array(
      Type.Object({
        name: Type.String(),
        kind: Type.String(),
        events: Type.Array(Type.String()),
        weight: Type.Integer(),
        status: Type.String(),
      }),
    ),
    dependencies: Type.Array(
      Type.Object({ name: Type.String(), version: Type.String(), repository: Type.Optional(Type.String()) }),
    ),
  }),
]);

const HookEvent = Type.Object({
  type: Type.String(),
  reason: Type.String(),
  message: Type.String(),
  object: Type.String({ description: '`Kind/name`: the hook or one of its pods' }),
  count: Type.Integer(),
  lastSeen: Type.String(),
});

/** What the hooks of a revision did, and the rollbacks Helm made (docs/helm.md#hooks). */
export const HookDiagnostics = Type.Object({
  name: Type.String(),
  namespace: Type.String(),
  revision: Type.Integer({
    description:
      'the revision diagnosed: the asked one, else a failed one the newest rolled back, else the newest',
  }),
  status: Type.String(),
  description: Type.String({ description: "Helm's words for the revision (why it failed)" }),
  hooks: Type.Array(
    Type.Object({
      name: Type.String(),
      kind: Type.String(),
      namespace: Type.String(),
      events: Type.Array(Type.String(), { description: 'pre-install, post-upgrade, …' }),
      weight: Type.Integer(),
      deletePolicies: Type.Array(Type.String()),
      phase: Type.String({ description: 'Succeeded, Failed, Running, Unknown, or `not run`' }),
      startedAt: Type.Optional(Type.String()),
      completedAt: Type.Optional(Type.String()),
      present: Type.Optional(
        Type.Boolean({ description: 'a Job: whether it still exists (a delete policy may have removed it)' }),
      ),
      job: Type.Optional(
        Type.Object({
          active: Type.Integer(),
          succeeded: Type.Integer(),
          failed: Type.Integer(),
          backoffLimit: Type.Optional(Type.Integer()),
          activeDeadlineSeconds: Type.Optional(Type.Integer()),
          condition: Type.Optional(
            Type.Object({ type: Type.String(), reason: Type.String(), message: Type.String() }),
          ),
        }),
      ),
      pods: Type.Array(
        Type.Object({
          name: Type.String(),
          status: Type.String(),
          restarts: Type.Integer(),
          exitCode: Type.Optional(Type.Integer()),
        }),
      ),
      hookEvents: Type.Array(HookEvent, {
        description: 'of the hook and its pods, newest first (at most 20)',
      }),
      readable: Type.Object(
        { jobs: Type.Boolean(), pods: Type.Boolean(), events: Type.Boolean() },
        { description: 'what the caller may list in its namespace (the rest is left out)' },
      ),
    }),
  ),
  failedHook: Type.Optional(Type.String()),
  rollbacks: Type.Array(
    Type.Object({
      revision: Type.Integer(),
      to: Type.Integer(),
      at: Type.Optional(Type.String()),
      failed: Type.Optional(
        Type.Object({ revision: Type.Integer(), status: Type.String(), description: Type.String() }),
      ),
    }),
    { description: 'newest first' },
  ),
});

const ChartName = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9][-A-Za-z0-9_.]*$' });
const ChartVersionText = Type.String({ minLength: 1, maxLength: 128, pattern: '^[-+A-Za-z0-9_.]+$' });
const RepositoryName = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: '^[a-z0-9]([-a-z0-9._]*[a-z0-9])?$',
});
const ValuesInput = Type.Union([Values, Type.String({ maxLength: 1 << 20 })], {
  description: 'values as an object, or YAML text',
});

export const ChartParams = Type.Object({ repo: RepositoryName, chart: ChartName });
export const ChartVersionParams = Type.Object({
  repo: RepositoryName,
  chart: ChartName,
  version: ChartVersionText,
});

export const InstallBody = Type.Object(
  {
    releaseName: ReleaseParams.properties.name,
    namespace: NamespaceParam,
    chartName: ChartName,
    version: ChartVersionText,
    repository: RepositoryName,
    values: Type.Optional(ValuesInput),
    createNamespace: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpgradeBody = Type.Object(
  {
    version: Type.Optional(ChartVersionText),
    repository: Type.Optional(RepositoryName),
    chartName: Type.Optional(ChartName),
    values: Type.Optional(ValuesInput),
    reuseValues: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const RollbackBody = Type.Object(
  { revision: Type.Optional(Revision) },
  { additionalProperties: false },
);

export const ValuesBody = Type.Object({ values: ValuesInput }, { additionalProperties: false });

export const ReleaseAnswer = Type.Object({
  message: Type.String(),
  kind: Type.String(),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
  release: Release,
});

/** A streamed install, upgrade or rollback: helm's progress as it works, then how it ended; the stream then ends. */
export const HelmStreamFrame = Type.Union([
  Type.Object({
    type: Type.Literal('progress'),
    phase: Type.String(),
    message: Type.String(),
    detail: Type.Optional(Type.String()),
  }),
  Type.Object({ type: Type.Literal('complete'), release: Type.Optional(Release) }),
  Type.Object({ type: Type.Literal('error'), message: Type.String(), code: Type.String() }),
]);

export const UpgradeInfo = Type.Object({
  currentVersion: Type.String(),
  latestVersion: Type.Optional(Type.String()),
  updateAvailable: Type.Boolean(),
  repositoryName: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
});

export const ChartVersion = Type.Object({
  version: Type.String(),
  appVersion: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  created: Type.Optional(Type.String()),
  deprecated: Type.Optional(Type.Boolean()),
  icon: Type.Optional(Type.String()),
  home: Type.Optional(Type.String()),
  keywords: Type.Optional(Type.Array(Type.String())),
});

export const Repository = Type.Object({
  name: Type.String(),
  url: Type.String(),
  type: Type.Enum(['http', 'oci']),
  charts: Type.Optional(Type.Integer()),
  updated: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
});
