import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { type PageFallback, routeNotFound } from './error-handler.ts';
import { AppError, echo } from './errors.ts';

/**
 * The web UI the agent and the hub serve: beside the release bundle (`npm run build:cli` copies it to
 * packages/cli/dist/web), else where the bootstrap builds packages/web (`vite build`) for a run from source.
 */
export const webDist =
  [resolve(import.meta.dirname, 'web'), resolve(import.meta.dirname, '../../../web/dist')].find((dir) =>
    existsSync(join(dir, 'index.html')),
  ) ?? resolve(import.meta.dirname, '../../../web/dist');

/**
 * The web UI's hashed assets under /assets/: their names change with their content, so browsers may keep them
 * for a year (the one exception to no-store, ADR 0016). The build writes a brotli and a gzip copy beside each
 * (`.br`, `.gz`), sent to clients that accept them (ADR 0058). Not registered when the UI is not built.
 */
export async function registerWebAssets(
  app: FastifyInstance,
  /** The route config that lets anyone fetch them: the files are the same for everyone, nothing secret in them. */
  config: FastifyContextConfig,
  dist = webDist,
): Promise<void> {
  const assets = join(dist, 'assets');
  if (!existsSync(assets)) return;
  await app.register(fastifyStatic, { root: assets, serve: false, preCompressed: true });
  app.get('/assets/*', { config, schema: { hide: true } }, (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    return reply.sendFile(file, { immutable: true, maxAge: '365d' });
  });
}

/** Which face of the one web app a server shows: an agent's cluster pages, or the hub's organisation pages. */
export type WebUiMode = 'agent' | 'hub';

/**
 * index.html for every page path (deep links), with `<base href>` naming where the UI lives (`/`, or
 * `/c/<cluster_id>/` through the hub), so its relative asset URLs and its router resolve from there, and a
 * `binnacle-ui` meta naming the mode. Kept fresh (no-store): it names the current assets.
 */
export function webPage(
  base: (request: FastifyRequest) => string,
  mode: WebUiMode,
  dist = webDist,
): PageFallback {
  let index: Promise<string> | undefined;
  return async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A missing asset stays a 404: a page in its place would break the script that asked for it. Debug paths
    // are routes (absent in cloud mode), never pages.
    if (path.startsWith('/assets/')) throw new AppError('not_found', `no asset ${echo(path)}`);
    if (path.startsWith('/debug/')) throw routeNotFound(request.method, path);
    // MCP clients look for OAuth metadata here: a page in its place would read as "this server signs in by OAuth".
    if (path.startsWith('/.well-known/') || path.startsWith('/mcp/') || path.startsWith('/mcp-readonly/'))
      throw routeNotFound(request.method, path);
    index ??= readFile(join(dist, 'index.html'), 'utf8').catch(() => {
      index = undefined;
      throw new AppError(
        'ui_not_built',
        `the web UI is not built (no ${join(dist, 'index.html')}); run sh scripts/bootstrap.sh`,
      );
    });
    const html = (await index).replace(
      '<head>',
      `<head>\n    <base href="${base(request)}" />\n    <meta name="binnacle-ui" content="${mode}" />`,
    );
    return reply.type('text/html; charset=utf-8').send(html);
  };
}
