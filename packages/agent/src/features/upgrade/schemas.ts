import { Type } from 'typebox';

const Text = Type.Optional(Type.String());

/** `1.N`: a Kubernetes minor release. */
export const Release = Type.String({ pattern: '^1\\.\\d{1,3}$', maxLength: 5, examples: ['1.33'] });

const Status = Type.Union(
  [Type.Literal('already-removed'), Type.Literal('removed-in-target'), Type.Literal('deprecated')],
  {
    description:
      'already-removed: the current release no longer serves it; removed-in-target: the target removes it; deprecated: removed later, or deprecated without a scheduled removal',
  },
);

const Finding = Type.Object({
  source: Type.Union(
    [
      Type.Literal('object'),
      Type.Literal('helm'),
      Type.Literal('gitops'),
      Type.Literal('served'),
      Type.Literal('apiserver-metrics'),
    ],
    {
      description:
        "object: a live object's last-applied manifest; helm: a release's latest manifest; gitops: an Argo CD Application's or Flux Kustomization's record; served: a version the cluster serves; apiserver-metrics: the API server's count of requests",
    },
  ),
  apiVersion: Type.String({ description: 'the deprecated or removed apiVersion in use' }),
  kind: Type.String(),
  namespace: Text,
  name: Text,
  resource: Type.Optional(Type.String({ description: 'the API resource (served versions, metrics)' })),
  release: Type.Optional(
    Type.Object({
      namespace: Type.String(),
      name: Type.String(),
      revision: Type.Integer(),
      chart: Text,
    }),
  ),
  application: Type.Optional(
    Type.Object({
      kind: Type.String({ description: 'Application (Argo CD) or Kustomization (Flux)' }),
      namespace: Type.String(),
      name: Type.String(),
    }),
  ),
  removedIn: Type.Optional(Type.String({ description: 'the Kubernetes release that stops serving it' })),
  replacement: Type.Optional(Type.String({ description: 'the apiVersion to move to' })),
  note: Text,
  status: Status,
});

export const ReadinessReport = Type.Object({
  current: Type.String({ description: "the cluster's Kubernetes release, 1.N" }),
  target: Type.String({ description: 'the release judged against, 1.N' }),
  summary: Type.Object({
    alreadyRemoved: Type.Integer(),
    removedInTarget: Type.Integer(),
    deprecated: Type.Integer(),
  }),
  total: Type.Integer({ description: 'findings in all, before the limit' }),
  findings: Type.Array(Finding),
  apiServerMetrics: Type.Object({
    available: Type.Boolean(),
    reason: Type.Optional(Type.String({ description: 'why /metrics could not be read (forbidden, …)' })),
    requested: Type.Array(
      Type.Object({
        group: Type.String(),
        version: Type.String(),
        resource: Type.String(),
        subresource: Text,
        removedRelease: Text,
      }),
    ),
  }),
  loading: Type.Array(Type.String(), { description: 'kinds still loading: findings may be missing' }),
});
