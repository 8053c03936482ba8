import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles } from './workspace-deps.ts';

/**
 * The web UI takes the API's shapes from the types generated from the OpenAPI documents, and a route's params and
 * search from the route's own definition (TanStack Router types them): these find what goes around either.
 */

/** The named schemas of the OpenAPI documents the web UI's types are generated from. */
export function apiSchemaNames(root: string): Set<string> {
  const names = ['agent', 'hub'].flatMap((server) => {
    const doc = JSON.parse(readFileSync(join(root, `docs/api/${server}-openapi.json`), 'utf8')) as {
      components?: { schemas?: Record<string, unknown> };
    };
    return Object.keys(doc.components?.schemas ?? {});
  });
  return new Set(names);
}

const routeHook = /\b(?:useParams|useSearch|useHubParams|useHubSearch)\b/g;

/** The line of each `useParams(…) as …` or `useSearch(…) as …` in a source (generic arguments and nesting allowed). */
export function routeHookCasts(source: string): number[] {
  const lines: number[] = [];
  for (const hook of source.matchAll(routeHook)) {
    let at = hook.index + hook[0].length;
    if (source[at] === '<') {
      let angles = 0;
      for (; at < source.length; at++) {
        if (source[at] === '<') angles++;
        else if (source[at] === '>' && --angles === 0) break;
      }
      at++;
    }
    if (source[at] !== '(') continue;
    let parens = 0;
    for (; at < source.length; at++) {
      if (source[at] === '(') parens++;
      else if (source[at] === ')' && --parens === 0) break;
    }
    if (/^\s*as\b/.test(source.slice(at + 1, at + 200)))
      lines.push(source.slice(0, hook.index).split('\n').length);
  }
  return lines;
}

/** The line of each hand-written `interface X` or `type X = {…}` whose name is one of `names`. */
export function shadowedSchemas(source: string, names: Set<string>): number[] {
  const lines: number[] = [];
  for (const m of source.matchAll(/\b(?:interface\s+(\w+)|type\s+(\w+)(?:<[^=]*>)?\s*=\s*\{)/g))
    if (names.has(m[1] ?? m[2] ?? '')) lines.push(source.slice(0, m.index).split('\n').length);
  return lines;
}

/** `path:line: what` for each cast of a route hook and each hand-written twin of an API schema in the web UI. */
export function webTypeFindings(root: string): string[] {
  const names = apiSchemaNames(root);
  return sourceFiles(join(root, 'packages/web/src')).flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    const path = relative(root, file);
    return [
      ...routeHookCasts(source).map(
        (line) => `${path}:${line}: a route hook's answer cast; take the route's types (useSearch({from}))`,
      ),
      ...shadowedSchemas(source, names).map(
        (line) => `${path}:${line}: a hand-written twin of an API schema; use the generated type`,
      ),
    ];
  });
}
