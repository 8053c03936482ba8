import type { FastifyInstance } from 'fastify';

/**
 * A route URL as a whole-path matcher: `:param` is one segment, `*` the rest. Those are the only forms our routes
 * use; fastify's router answers the real requests, this only tells a wrong method from an unknown path.
 */
function matcher(url: string): RegExp {
  const source = url
    .replace(/\/$/, '')
    .split(/(:\w+|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}/?$`);
}

/**
 * Collects the method of every route as it is added and answers, for a path, the methods declared on it: the
 * not-found handler turns a known path with another method into 405 with `Allow` (RFC 9110 §15.5.6).
 * Register before any route.
 */
export function trackAllowedMethods(app: FastifyInstance): (path: string) => string[] {
  const routes: { method: string; matches: RegExp }[] = [];
  app.addHook('onRoute', (route) => {
    const matches = matcher(route.url);
    for (const method of [route.method].flat()) routes.push({ method, matches });
  });
  return (path) => {
    const methods = routes.filter((r) => r.matches.test(path)).map((r) => r.method);
    return [...new Set(methods)].sort();
  };
}
