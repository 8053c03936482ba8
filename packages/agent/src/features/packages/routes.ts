import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { callerView } from '../../http/caller-view.ts';
import { NamespaceParam } from '../../http/schemas.ts';
import { ReleaseDecoder } from '../../scope/helm-releases.ts';
import { sources } from './contributors.ts';
import { healthOrder } from './merge.ts';
import type { PackagesContext } from './module.ts';
import { listPackages } from './service.ts';

const Health = Type.Enum(healthOrder);
const Source = Type.Enum([...sources]);

const Contributor = Type.Object({
  source: Source,
  chart: Type.String(),
  health: Health,
  version: Type.Optional(Type.String()),
  appVersion: Type.Optional(Type.String()),
  releaseName: Type.Optional(Type.String()),
  releaseNamespace: Type.Optional(Type.String()),
  object: Type.Object({ kind: Type.String(), namespace: Type.Optional(Type.String()), name: Type.String() }),
});

const Package = Type.Object({
  chart: Type.String(),
  namespace: Type.Optional(Type.String({ description: 'where the release is installed' })),
  releaseName: Type.Optional(Type.String()),
  version: Type.Optional(Type.String({ description: 'from Helm, else a label, a CRD, the GitOps object' })),
  appVersion: Type.Optional(Type.String()),
  health: Type.Enum(healthOrder, { description: 'the worst of its contributors' }),
  sources: Type.Array(Source),
  contributors: Type.Array(Contributor),
});

export function packagesRoutes(app: App, ctx: PackagesContext): void {
  const decoder = new ReleaseDecoder();
  app.get(
    '/api/packages',
    {
      config: callerAware,
      schema: {
        tags: ['packages'],
        summary:
          'Installed packages, one row per chart and release, merged from Helm releases, chart labels on workloads, CRDs, Argo CD Applications and Flux HelmReleases and Kustomizations',
        querystring: Query({
          namespace: Type.Optional(NamespaceParam),
          source: Type.Optional(Source),
          health: Type.Optional(Health),
        }),
        response: {
          200: Type.Object({
            packages: Type.Array(Package),
            total: Type.Integer(),
            loading: Type.Array(Type.String(), { description: 'kinds not synced yet (plural.group)' }),
            unreadable: Type.Integer({ description: 'Helm release Secrets that could not be decoded' }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => listPackages(ctx, decoder, await callerView(ctx, request.caller), request.query),
  );
}
