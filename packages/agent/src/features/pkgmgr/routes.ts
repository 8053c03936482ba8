import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import { parseHelmRepositories } from '../../config/helm-repositories.ts';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { visibleNamespaces } from '../../http/caller-view.ts';
import { requestedNamespaces } from '../../http/query.ts';
import { NamespaceParam } from '../../http/schemas.ts';
import type { Impersonation } from '../../kube/client.ts';
import { releaseRevision } from '../../scope/helm-history.ts';
import { ReleaseDecoder } from '../../scope/helm-releases.ts';
import { pkgmgrActionRoutes } from './action-routes.ts';
import { catalogRoutes } from './catalog-routes.ts';
import { pkgmgrChartRoutes } from './chart-routes.ts';
import { ChartSources } from './chart-sources.ts';
import { hookDiagnostics } from './hook-diagnostics.ts';
import type { PkgmgrContext } from './module.ts';
import { releaseDetail, releaseDiff, releaseRevisionsFor, releaseValues } from './release-detail.ts';
import { HookDiagnostics, ReleaseDetail, ReleaseParams, Releases, Revision, Values } from './schemas.ts';
import { pkgmgrDashboard } from './service.ts';

const tags = ['pkgmgr'];

export function pkgmgrRoutes(app: App, ctx: PkgmgrContext): void {
  const decoder = new ReleaseDecoder();
  const revisionsFor = (caller: Impersonation | undefined, params: { namespace: string; name: string }) =>
    releaseRevisionsFor(ctx, decoder, caller, params.namespace, params.name);

  app.get(
    '/api/pkgmgr/releases',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Helm releases (newest revision each), in the namespaces where the caller may list Secrets',
        querystring: Query({
          namespace: Type.Optional(NamespaceParam),
          namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
        }),
        response: { 200: Releases, ...errorResponses },
      },
    },
    async (request) =>
      pkgmgrDashboard(
        ctx,
        decoder,
        await visibleNamespaces(
          ctx,
          request.caller,
          { group: '', resource: 'secrets' },
          requestedNamespaces(request.query),
        ),
      ),
  );

  app.get(
    '/api/pkgmgr/releases/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'A release: its newest revision, history, the objects it manages with their health, hooks, notes',
        params: ReleaseParams,
        querystring: Query({}),
        response: { 200: ReleaseDetail, ...errorResponses },
      },
    },
    async (request) => releaseDetail(ctx, await revisionsFor(request.caller, request.params)),
  );

  app.get(
    '/api/pkgmgr/releases/:namespace/:name/hooks',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          "What a revision's hooks did — Helm's record of each run, its Job's condition, pods and events — and the rollbacks Helm made",
        description:
          'Without `revision`: when the newest revision rolled back a failed one, the failed one; else the newest.',
        params: ReleaseParams,
        querystring: Query({ revision: Type.Optional(Revision) }),
        response: { 200: HookDiagnostics, ...errorResponses },
      },
    },
    async (request) =>
      hookDiagnostics(
        ctx,
        request.caller,
        await revisionsFor(request.caller, request.params),
        request.query.revision,
      ),
  );

  app.get(
    '/api/pkgmgr/releases/:namespace/:name/manifest',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'The rendered manifest of a revision (the newest by default)',
        params: ReleaseParams,
        querystring: Query({ revision: Type.Optional(Revision) }),
        response: {
          200: Type.Object({ revision: Type.Integer(), manifest: Type.String() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const release = releaseRevision(
        await revisionsFor(request.caller, request.params),
        request.query.revision,
      );
      return { revision: release.version, manifest: release.manifest ?? '' };
    },
  );

  app.get(
    '/api/pkgmgr/releases/:namespace/:name/values',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          "A revision's user-supplied values; with all=true also the computed ones (chart defaults coalesced)",
        params: ReleaseParams,
        querystring: Query({ revision: Type.Optional(Revision), all: Type.Optional(Type.Boolean()) }),
        response: {
          200: Type.Object({
            revision: Type.Integer(),
            userSupplied: Values,
            computed: Type.Optional(Values),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      releaseValues(
        releaseRevision(await revisionsFor(request.caller, request.params), request.query.revision),
        request.query.all ?? false,
      ),
  );

  app.get(
    '/api/pkgmgr/releases/:namespace/:name/diff',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "A unified diff of two revisions' manifests (by default the newest and the one before it)",
        params: ReleaseParams,
        querystring: Query({ revision1: Type.Optional(Revision), revision2: Type.Optional(Revision) }),
        response: {
          200: Type.Object({ revision1: Type.Integer(), revision2: Type.Integer(), diff: Type.String() }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      releaseDiff(
        await revisionsFor(request.caller, request.params),
        request.query.revision1,
        request.query.revision2,
      ),
  );

  app.get(
    '/api/dashboard/pkgmgr',
    {
      config: callerAware,
      schema: {
        tags: ['dashboard', 'pkgmgr'],
        summary: 'Helm releases (newest revision each), decoded from their Secrets in the cache',
        querystring: Query({}),
        response: { 200: Releases, ...errorResponses },
      },
    },
    async (request) =>
      pkgmgrDashboard(
        ctx,
        decoder,
        await visibleNamespaces(ctx, request.caller, { group: '', resource: 'secrets' }, undefined),
      ),
  );

  // The chart repositories and registries of `--helm-repositories`: only these routes read them.
  const charts = new ChartSources(parseHelmRepositories(ctx.config.helmRepositories));
  pkgmgrActionRoutes(app, ctx, decoder, charts);
  pkgmgrChartRoutes(app, ctx, decoder, charts);
  catalogRoutes(app, ctx);
}
