import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { importsOf, sourceFiles } from './workspace-deps.ts';

/**
 * The layering rules of one package (docs/adr/0091-layers-checked-in-ci.md): `layers` lists its folders and
 * top-level files from the bottom up; a file may import from its own layer and those below, never from one
 * above. A file no layer names is reported, so a new top-level folder gets its place before it lands.
 * Every import counts, type-only ones too: a type import is a dependency a reader follows all the same.
 */
export interface PackageLayers {
  /** The package's source folder, relative to the repository root. */
  root: string;
  /** Bottom first; each entry lists paths relative to `root`: a folder (`kube/`) or a file (`context.ts`). */
  layers: readonly (readonly string[])[];
  /**
   * Folders whose subfolders are each a unit of their own (`features/`: one feature per folder): an import loop
   * may stay inside one unit, never span two.
   */
  unitParents?: readonly string[];
  /**
   * Unit parents whose units import no sibling (`features/`: no feature imports another). What two of them share
   * lives in a layer below, or passes between them as a service their modules declare.
   */
  siblingsIsolated?: readonly string[];
}

export interface LayerProblem {
  kind: 'upward' | 'sibling' | 'loop' | 'unplaced';
  text: string;
}

/** Tests are leaves (nothing imports them) and may start a whole server from any layer: not part of the graph. */
const testFile = /\.test\.tsx?$/;

/** The relative imports of a file, resolved to files that exist (`.ts`, `.tsx` or a folder's index). */
function relativeImports(file: string): string[] {
  const found = new Set<string>();
  for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
    if (!specifier.startsWith('./') && !specifier.startsWith('../')) continue;
    const target = resolve(dirname(file), specifier);
    const candidates = [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')];
    const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile());
    if (hit) found.add(hit);
  }
  return [...found];
}

const posix = (path: string) => path.split(sep).join('/');

/** Which layer (index, bottom 0) a path relative to the package's root belongs to; -1 when none names it. */
function layerOf(path: string, layers: PackageLayers['layers']): number {
  return layers.findIndex((entries) =>
    entries.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry)),
  );
}

/** The unit a file belongs to: its top folder, or `features/<name>` under a unit parent; a top-level file is its own. */
function unitOf(path: string, unitParents: readonly string[]): string {
  const parent = unitParents.find((p) => path.startsWith(p));
  const rest = parent ? path.slice(parent.length) : path;
  const head = rest.split('/')[0] as string;
  return (parent ?? '') + head;
}

/** The isolated parent (`features/`) a path is under, when both it and `other` are, in two different units. */
function siblingParent(path: string, other: string, pkg: PackageLayers): string | undefined {
  const parent = pkg.siblingsIsolated?.find((p) => path.startsWith(p));
  if (!parent || !other.startsWith(parent)) return undefined;
  const units = pkg.unitParents ?? [];
  return unitOf(path, units) === unitOf(other, units) ? undefined : parent;
}

/** Strongly connected components of size > 1 (Tarjan), each with its members. */
function loops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  // Iterative, so a deep import chain cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++] as string;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const members: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          members.push(member);
        } while (member !== frame.node);
        if (members.length > 1) found.push(members);
      }
    }
  }
  return found;
}

/** A shortest path from `from` to `to` inside a component (both ends included), undefined when there is none. */
function pathWithin(
  from: string,
  to: string,
  members: ReadonlySet<string>,
  graph: ReadonlyMap<string, readonly string[]>,
) {
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    if (node === to) {
      const path = [to];
      while (path[0] !== from) path.unshift(previous.get(path[0] as string) as string);
      return path;
    }
    for (const next of graph.get(node) ?? [])
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
  }
  return undefined;
}

/** One cycle of a component that crosses from one unit into another: the loop a reader has to break. */
function crossingCycle(
  members: ReadonlySet<string>,
  graph: ReadonlyMap<string, readonly string[]>,
  unit: (file: string) => string,
): string[] {
  for (const from of [...members].sort())
    for (const to of graph.get(from) ?? []) {
      if (!members.has(to) || unit(to) === unit(from)) continue;
      const back = pathWithin(to, from, members, graph);
      if (back) return [from, ...back];
    }
  return [...members];
}

/**
 * Every import that runs up the layering, every import of a sibling unit where siblings are isolated, every loop
 * spanning two units, every file no layer places.
 */
export function checkLayers(repository: string, packages: readonly PackageLayers[]): LayerProblem[] {
  const problems: LayerProblem[] = [];
  for (const pkg of packages) {
    const root = join(repository, pkg.root);
    const name = (file: string) => posix(relative(root, file));
    const graph = new Map<string, string[]>();
    for (const file of sourceFiles(root).filter((f) => !testFile.test(f)))
      graph.set(
        file,
        relativeImports(file).filter((f) => f.startsWith(root + sep)),
      );
    for (const [file, targets] of graph) {
      const own = layerOf(name(file), pkg.layers);
      if (own < 0) {
        problems.push({ kind: 'unplaced', text: `${pkg.root}/${name(file)} is in no layer` });
        continue;
      }
      for (const target of targets) {
        const theirs = layerOf(name(target), pkg.layers);
        if (theirs > own)
          problems.push({
            kind: 'upward',
            text: `${pkg.root}: ${name(file)} imports ${name(target)}, a layer above it`,
          });
        const parent = siblingParent(name(file), name(target), pkg);
        if (parent)
          problems.push({
            kind: 'sibling',
            text: `${pkg.root}: ${name(file)} imports ${name(target)}, a sibling folder in ${parent}`,
          });
      }
    }
    for (const members of loops(graph)) {
      const unit = (file: string) => unitOf(name(file), pkg.unitParents ?? []);
      const units = new Set(members.map(unit));
      if (units.size < 2) continue;
      const cycle = crossingCycle(new Set(members), graph, unit).map(name);
      problems.push({
        kind: 'loop',
        text: `${pkg.root}: import loop across ${[...units].sort().join(', ')} (${members.length} files): ${cycle.join(' → ')}`,
      });
    }
  }
  return problems;
}

/** The layers of the agent and the hub, bottom first (docs/architecture.md §3). */
export const repositoryLayers: readonly PackageLayers[] = [
  {
    root: 'packages/agent/src',
    layers: [
      ['kube/', 'oci/'],
      ['http/'],
      ['config/'],
      ['scope/', 'context.ts', 'module.ts'],
      ['features/'],
      ['modules.ts', 'server.ts', 'agent.ts', 'openapi-document.ts', 'cli/', 'index.ts', 'testing/'],
    ],
    unitParents: ['features/'],
    siblingsIsolated: ['features/'],
  },
  {
    root: 'packages/hub/src',
    layers: [
      ['db/', 'security/'],
      ['config/'],
      ['services/'],
      ['http/'],
      ['context.ts'],
      ['features/'],
      ['modules.ts', 'server.ts', 'hub.ts', 'openapi-document.ts', 'cli/', 'index.ts', 'testing/'],
    ],
    unitParents: ['services/', 'features/'],
    // The engines are peers `hub.ts` wires together; only loops between them are refused (ADR 0103).
    siblingsIsolated: ['features/'],
  },
];
