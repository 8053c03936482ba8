import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware, requireAccess } from '../../http/caller.ts';
import { visibleNamespaces } from '../../http/caller-view.ts';
import { requestedNamespaces } from '../../http/query.ts';
import { NamespaceParam } from '../../http/schemas.ts';
import { releaseRevision, releaseRevisions } from '../../scope/helm-history.ts';
import { type ReleaseDecoder, summarizeRelease } from '../../scope/helm-releases.ts';
import type { ChartSources } from './chart-sources.ts';
import type { PkgmgrContext } from './module.ts';
import {
  ChartParams,
  ChartVersion,
  ChartVersionParams,
  ReleaseParams,
  Repository,
  UpgradeInfo,
} from './schemas.ts';
import { pkgmgrDashboard } from './service.ts';
import { upgradeInfo } from './upgrades.ts';

const tags = ['pkgmgr'];

/**
 * The chart sources (`--helm-repositories`): their charts and versions, one version's values, README and
 * schema, and whether releases have newer versions there. Sources are read natively, without helm.
 */
export function pkgmgrChartRoutes(
  app: App,
  ctx: PkgmgrContext,
  decoder: ReleaseDecoder,
  sources: ChartSources,
): void {
  app.get(
    '/api/pkgmgr/repositories',
    {
      schema: {
        tags,
        summary: 'The configured chart sources with their chart counts, or the error their last fetch met',
        querystring: Query({}),
        response: { 200: Type.Object({ repositories: Type.Array(Repository) }), ...errorResponses },
      },
    },
    async () => ({ repositories: await sources.status() }),
  );

  app.post(
    '/api/pkgmgr/repositories/:name/update',
    {
      schema: {
        tags,
        summary: "Fetch a source's index again now (classic: index.yaml; OCI: catalog and tags)",
        params: Type.Object({ name: ChartParams.properties.repo }),
        querystring: Query({}),
        response: { 200: Repository, ...errorResponses },
      },
    },
    async (request) => {
      const repository = sources.repository(request.params.name);
      const index = await sources.index(repository.name, true);
      return { ...repository, charts: index.charts.size, updated: index.updated };
    },
  );

  app.get(
    '/api/pkgmgr/charts',
    {
      schema: {
        tags,
        summary: "Every chart of the configured sources (or of one), with its newest version's description",
        querystring: Query({
          repo: Type.Optional(ChartParams.properties.repo),
          query: Type.Optional(
            Type.String({ maxLength: 200, description: 'words in the name, description or keywords' }),
          ),
        }),
        response: {
          200: Type.Object({
            charts: Type.Array(
              Type.Intersect([
                Type.Object({ name: Type.String(), repository: Type.String(), versions: Type.Integer() }),
                ChartVersion,
              ]),
            ),
            errors: Type.Array(Type.Object({ repository: Type.String(), error: Type.String() })),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { repo, query } = request.query;
      const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const charts = [];
      const errors = [];
      for (const { name: repository } of repo ? [sources.repository(repo)] : sources.repositories) {
        try {
          for (const [name, versions] of (await sources.index(repository)).charts) {
            const newest = versions[0];
            if (!newest) continue;
            const text = [name, newest.description ?? '', ...(newest.keywords ?? [])].join(' ').toLowerCase();
            if (!words.every((word) => text.includes(word))) continue;
            const { urls: _urls, ...shown } = newest;
            charts.push({ name, repository, versions: versions.length, ...shown });
          }
        } catch (error) {
          errors.push({ repository, error: (error as Error).message });
        }
      }
      charts.sort((a, b) => a.name.localeCompare(b.name) || a.repository.localeCompare(b.repository));
      return { charts, errors };
    },
  );

  app.get(
    '/api/pkgmgr/charts/:repo/:chart',
    {
      schema: {
        tags,
        summary: "A chart's versions, newest first",
        params: ChartParams,
        querystring: Query({}),
        response: {
          200: Type.Object({
            name: Type.String(),
            repository: Type.String(),
            versions: Type.Array(ChartVersion),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { repo, chart } = request.params;
      const versions = (await sources.versions(repo, chart)).map(({ urls: _urls, ...shown }) => shown);
      return { name: chart, repository: repo, versions };
    },
  );

  app.get(
    '/api/pkgmgr/charts/:repo/:chart/:version',
    {
      schema: {
        tags,
        summary:
          'One chart version from its package: metadata, default values (YAML as written), README, values schema',
        params: ChartVersionParams,
        querystring: Query({}),
        response: {
          200: Type.Intersect([
            ChartVersion,
            Type.Object({
              name: Type.String(),
              repository: Type.String(),
              values: Type.String(),
              readme: Type.Optional(Type.String()),
              schema: Type.Optional(Type.Unknown()),
              dependencies: Type.Array(
                Type.Object({
                  name: Type.String(),
                  version: Type.String(),
                  repository: Type.Optional(Type.String()),
                }),
              ),
            }),
          ]),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { repo, chart, version } = request.params;
      const { urls: _urls, metadata, ...files } = await sources.files(repo, chart, version);
      const dependencies = Array.isArray(metadata.dependencies)
        ? (metadata.dependencies as Record<string, unknown>[]).map((d) => ({
            name: String(d.name ?? ''),
            version: String(d.version ?? ''),
            ...(typeof d.repository === 'string' ? { repository: d.repository } : {}),
          }))
        : [];
      return { name: chart, repository: repo, ...files, dependencies };
    },
  );

  app.get(
    '/api/pkgmgr/releases/:namespace/:name/upgrade-info',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "Whether a configured source has a newer version of the release's chart",
        params: ReleaseParams,
        querystring: Query({}),
        response: { 200: UpgradeInfo, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, name } = request.params;
      await requireAccess(ctx, request.caller, { verb: 'list', group: '', resource: 'secrets', namespace });
      const release = summarizeRelease(releaseRevision(releaseRevisions(ctx, decoder, namespace, name)));
      return upgradeInfo(sources, release);
    },
  );

  app.get(
    '/api/pkgmgr/upgrade-check',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'upgrade-info of every release the caller may see, keyed "namespace/name" (sources fetched once)',
        querystring: Query({
          namespace: Type.Optional(NamespaceParam),
          namespaces: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated namespaces' })),
        }),
        response: {
          200: Type.Object({ releases: Type.Record(Type.String(), UpgradeInfo), checkedAt: Type.String() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const namespaces = await visibleNamespaces(
        ctx,
        request.caller,
        { group: '', resource: 'secrets' },
        requestedNamespaces(request.query),
      );
      const { releases } = pkgmgrDashboard(ctx, decoder, namespaces);
      // Every source's index is fetched (or taken from its cache) once, before the releases are compared.
      await Promise.all(sources.repositories.map((r) => sources.index(r.name).catch(() => undefined)));
      const answers = await Promise.all(releases.map((release) => upgradeInfo(sources, release)));
      return {
        releases: Object.fromEntries(releases.map((r, i) => [`${r.namespace}/${r.name}`, answers[i]])),
        checkedAt: new Date().toISOString(),
      };
    },
  );
}
