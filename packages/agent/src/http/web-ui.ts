import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AppError, echo, type PageFallback, routeNotFound } from '@binnacle/common/server';
import fastifyStatic from '@fastify/static';
import type { FastifyRequest } from 'fastify';
import type { App } from '../context.ts';
import { callerAware } from './caller.ts';

/** Where the bootstrap builds packages/web (`vite build`). */
export const webDist = resolve(import.meta.dirname, '../../../web/dist');

/**
 * The web UI's hashed assets under /assets/: their names change with their content, so browsers may keep them
 * for a year (the one exception to no-store, ADR 0016). Not registered when the UI is not built.
 */
export async function registerWebAssets(app: App, dist = webDist): Promise<void> {
  const assets = join(dist, 'assets');
  if (!existsSync(assets)) return;
  await app.register(fastifyStatic, { root: assets, serve: false });
  app.get(
    '/assets/*',
    // The same files for everyone, nothing of the cluster in them: served to tunneled callers as well.
    { config: callerAware, schema: { hide: true } },
    (request, reply) => {
      const file = (request.params as { '*': string })['*'];
      return reply.sendFile(file, { immutable: true, maxAge: '365d' });
    },
  );
}

/**
 * index.html for every page path (deep links), with `<base href>` naming where the UI lives (`/`, or
 * `/c/<cluster_id>/` through the hub), so its relative asset URLs and its router resolve from there. Kept fresh
 * (no-store): it names the current assets.
 */
export function webPage(base: (request: FastifyRequest) => string, dist = webDist): PageFallback {
  let index: Promise<string> | undefined;
  return async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A missing asset stays a 404: a page in its place would break the script that asked for it. Debug paths
    // are routes (absent in cloud mode), never pages.
    if (path.startsWith('/assets/')) throw new AppError('not_found', `no asset ${echo(path)}`);
    if (path.startsWith('/debug/')) throw routeNotFound(request.method, path);
    index ??= readFile(join(dist, 'index.html'), 'utf8').catch(() => {
      index = undefined;
      throw new AppError(
        'ui_not_built',
        `the web UI is not built (no ${join(dist, 'index.html')}); run sh scripts/bootstrap.sh`,
      );
    });
    const html = (await index).replace('<head>', `<head>\n    <base href="${base(request)}" />`);
    return reply.type('text/html; charset=utf-8').send(html);
  };
}
