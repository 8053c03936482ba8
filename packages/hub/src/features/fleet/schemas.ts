import { searchLimits } from '@binnacle/common';
import { Query, TimeOrDuration } from '@binnacle/common/server';
import { type Static, type TObject, type TProperties, Type } from 'typebox';

/** Rows in one answer, at most: a fleet of 50 clusters with 20 problems each fits the default. */
export const fleetRowLimits = { defaultLimit: 200, maxLimit: 1000 };

const Limit = Type.Integer({
  minimum: 1,
  maximum: fleetRowLimits.maxLimit,
  default: fleetRowLimits.defaultLimit,
  description: 'rows at most (total counts them all)',
});
const Namespace = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
  description: 'only this namespace, in every cluster',
});
const Severity = Type.Union([Type.Literal('warning'), Type.Literal('danger')]);
const Category = Type.Union([
  Type.Literal('Security'),
  Type.Literal('Reliability'),
  Type.Literal('Efficiency'),
]);

export const NamespaceQuery = Query({
  namespace: Type.Optional(Namespace),
  limit: Type.Optional(Limit),
});
export const AuditQuery = Query({
  namespace: Type.Optional(Namespace),
  category: Type.Optional(Category),
  severity: Type.Optional(Severity),
  limit: Type.Optional(Limit),
});
export const SearchQuery = Query({
  q: Type.String({
    minLength: 1,
    maxLength: searchLimits.maxQueryChars,
    description: 'words that must all appear in the name, namespace, kind, a label or an annotation value',
  }),
  namespace: Type.Optional(Namespace),
  kind: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'only this kind' })),
  at: Type.Optional(
    TimeOrDuration({
      maxLength: 64,
      description:
        "a past moment, RFC 3339 or a duration back from now (90m): each cluster's objects as they were then (time travel); a cluster whose kept past does not reach it answers its refusal",
    }),
  ),
  limit: Type.Optional(Limit),
});

const ClusterStatus = Type.Union(
  ['ok', 'offline', 'timeout', 'forbidden', 'error'].map((s) => Type.Literal(s)),
  {
    description:
      'ok: answered; offline: its agent is not connected (or dropped); timeout: slower than the per-cluster time-out; forbidden: its RBAC refused the caller; error: anything else (see errors)',
  },
);
export type ClusterStatus = 'ok' | 'offline' | 'timeout' | 'forbidden' | 'error';

const ClusterPart = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: ClusterStatus,
  rows: Type.Integer({ description: 'rows it contributed, before limit' }),
  summary: Type.Optional(
    Type.Record(Type.String(), Type.Integer(), { description: "the cluster's own counts for this view" }),
  ),
  loading: Type.Optional(Type.Array(Type.String(), { description: 'kinds it has not synced yet' })),
});

const Failure = Type.Object({
  cluster: Type.Object({ id: Type.String(), name: Type.String() }),
  code: Type.String({ description: 'cluster_offline, agent_timeout, forbidden, … (docs/api/errors.md)' }),
  error: Type.String(),
});

/** Every fleet answer: merged rows naming their cluster (the UI links them to /c/<clusterId>/…), per-cluster status, errors. */
export function fleetAnswer<T extends TProperties>(row: TObject<T>, order: string) {
  return Type.Object({
    items: Type.Array(
      Type.Object({ clusterId: Type.String(), clusterName: Type.String(), ...row.properties }),
      { description: order },
    ),
    total: Type.Integer({ description: 'rows from every cluster that answered, before limit' }),
    clusters: Type.Array(ClusterPart, { description: 'every cluster of the organisation, by name' }),
    errors: Type.Array(Failure, { description: 'the clusters whose part is missing, and why' }),
  });
}

const Optional = (description?: string) => Type.Optional(Type.String({ description }));

export const ProblemRow = Type.Object({
  kind: Type.String(),
  namespace: Optional(),
  name: Type.String(),
  status: Type.String(),
  reason: Type.String(),
  message: Type.String(),
  ageSeconds: Type.Integer(),
  source: Type.String({ description: 'health, certificate or audit' }),
});
export const CertificateRow = Type.Object({
  kind: Type.String({ description: 'Secret (kubernetes.io/tls) or Certificate (cert-manager)' }),
  namespace: Type.String(),
  name: Type.String(),
  severity: Type.String({ description: 'expired, invalid, critical (≤ 7 days), warning (≤ 30 days), ok' }),
  daysLeft: Type.Union([Type.Integer(), Type.Null()]),
  notAfter: Type.Union([Type.String(), Type.Null()]),
  problems: Type.Array(Type.String()),
});
export const FindingRow = Type.Object({
  kind: Type.String(),
  namespace: Optional(),
  name: Type.String(),
  checkId: Type.String(),
  category: Type.String(),
  severity: Type.String(),
  message: Type.String(),
  container: Optional(),
});
export const PackageRow = Type.Object({
  chart: Type.String(),
  namespace: Optional('where the release is installed'),
  releaseName: Optional(),
  version: Optional(),
  appVersion: Optional(),
  health: Type.String(),
  sources: Type.Array(Type.String()),
  upgrade: Type.Optional(
    Type.Object(
      {
        latestVersion: Optional(),
        updateAvailable: Type.Boolean(),
        repositoryName: Optional(),
        error: Optional('why no answer could be given'),
      },
      { description: "Helm releases: the cluster's upgrade check against its chart sources" },
    ),
  ),
});
export const SearchRow = Type.Object({
  kind: Type.String(),
  group: Type.String(),
  namespace: Optional(),
  name: Type.String(),
  summary: Type.String({ description: 'one redacted line: `Kind namespace/name: state`' }),
});

export type Problem = Static<typeof ProblemRow>;
export type Certificate = Static<typeof CertificateRow>;
export type Finding = Static<typeof FindingRow>;
export type Package = Static<typeof PackageRow>;
export type SearchHit = Static<typeof SearchRow>;
