import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export interface Workspace {
  dir: string;
  manifest: Manifest;
}

const builtins = new Set(builtinModules);
const sourceFile = /\.(ts|tsx)$/;
const skipped = new Set(['node_modules', 'dist', 'generated']);

/** Every workspace under packages/, with its package.json. */
export function workspaces(root: string): Workspace[] {
  return readdirSync(join(root, 'packages')).map((name) => {
    const dir = join(root, 'packages', name);
    return { dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest };
  });
}

/** The TypeScript sources below `dir`, without dependencies, builds and generated code. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return sourceFile.test(entry.name) ? [path] : [];
  });
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`; relative paths and Node's own modules → undefined. */
function packageOf(specifier: string): string | undefined {
  if (!/^[@\w][\w./@-]*$/.test(specifier)) return undefined;
  if (specifier.startsWith('node:') || builtins.has(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** What a module imports: static imports and re-exports, side-effect imports and dynamic imports of a literal. */
export function importsOf(text: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1] ?? ''));
}

/** Tests, test support (src/testing/) and build scripts outside src/ may use devDependencies; the rest may not. */
const isDevFile = (workspace: Workspace, file: string) => {
  const path = relative(workspace.dir, file);
  return /\.test\.tsx?$/.test(path) || path.startsWith('src/testing/') || !path.startsWith('src/');
};

/** Imports of a workspace's files that its package.json does not declare (where they are allowed). */
export function undeclaredImports(workspace: Workspace): string[] {
  const { dependencies = {}, devDependencies = {} } = workspace.manifest;
  const found: string[] = [];
  for (const file of sourceFiles(workspace.dir)) {
    const text = readFileSync(file, 'utf8');
    const dev = isDevFile(workspace, file);
    for (const specifier of importsOf(text)) {
      const name = packageOf(specifier);
      if (!name || name === workspace.manifest.name) continue;
      const declared = name in dependencies || (dev && name in devDependencies);
      if (!declared) found.push(`${relative(workspace.dir, file)} imports ${name}`);
    }
  }
  return [...new Set(found)];
}

/** Workspace dependency cycles (dependencies and devDependencies alike), each as a path `a → b → a`. */
export function workspaceCycles(all: Workspace[]): string[] {
  const names = new Set(all.map((w) => w.manifest.name));
  const edges = new Map(
    all.map((w) => [
      w.manifest.name,
      Object.keys({ ...w.manifest.dependencies, ...w.manifest.devDependencies }).filter((d) => names.has(d)),
    ]),
  );
  const cycles: string[] = [];
  const visit = (name: string, path: string[]) => {
    if (path.includes(name)) {
      cycles.push([...path.slice(path.indexOf(name)), name].join(' → '));
      return;
    }
    for (const next of edges.get(name) ?? []) visit(next, [...path, name]);
  };
  for (const name of names) visit(name, []);
  return [...new Set(cycles)];
}
