import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers, type PackageLayers } from './layers.ts';

const layers: PackageLayers = {
  root: 'src',
  layers: [['kube/'], ['http/'], ['context.ts'], ['features/'], ['server.ts']],
  unitParents: ['features/'],
};

let repository: string | undefined;
afterEach(() => {
  if (repository) rmSync(repository, { recursive: true, force: true });
  repository = undefined;
});

/** A package tree from `{ path: source }`, checked with the fixture's layers (or others). */
function check(files: Record<string, string>, rules: PackageLayers = layers) {
  repository = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, source] of Object.entries(files)) {
    const file = join(repository, 'src', path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, source);
  }
  return checkLayers(repository, [rules]);
}

describe('checkLayers', () => {
  it('passes a tree whose imports only run down or sideways without loops', () => {
    expect(
      check({
        'kube/client.ts': 'export const client = 1;',
        'http/caller.ts': "import { client } from '../kube/client.ts';\nexport const caller = client;",
        'context.ts': "import type { caller } from './http/caller.ts';\nexport type Context = typeof caller;",
        'features/logs/routes.ts': "import type { Context } from '../../context.ts';\nexport const logs = 1;",
        'features/exec/routes.ts': "import { logs } from '../logs/routes.ts';\nexport const exec = logs;",
        'server.ts': "import { exec } from './features/exec/routes.ts';\nexport { exec };",
      }),
    ).toEqual([]);
  });

  it('names an import that runs up the layering, type-only imports included', () => {
    expect(
      check({
        'kube/client.ts':
          "import type { Routes } from '../features/logs/routes.ts';\nexport type C = Routes;",
        'features/logs/routes.ts': 'export type Routes = 1;',
        'server.ts': '',
      }),
    ).toEqual([
      { kind: 'upward', text: 'src: kube/client.ts imports features/logs/routes.ts, a layer above it' },
    ]);
  });

  it('counts re-exports and dynamic imports, resolves folder indexes and leaves tests out', () => {
    const problems = check({
      'kube/index.ts': "export { helper } from '../http/helper.ts';",
      'kube/lazy.ts': "export const load = () => import('../server.ts');",
      'kube/client.int.test.ts': "import '../server.ts';",
      'http/helper.ts': "import '../kube';\nexport const helper = 1;",
      'server.ts': '',
    });
    expect(problems.filter((p) => p.kind === 'upward').map((p) => p.text)).toEqual([
      'src: kube/index.ts imports http/helper.ts, a layer above it',
      'src: kube/lazy.ts imports server.ts, a layer above it',
    ]);
    // kube/index.ts ↔ http/helper.ts is also a loop across two folders.
    expect(problems.filter((p) => p.kind === 'loop')).toHaveLength(1);
  });

  it('refuses a loop between two feature folders and names a path round it', () => {
    expect(
      check({
        'features/logs/a.ts': "import { b } from '../exec/b.ts';\nexport const a = 1;",
        'features/exec/b.ts': "import { a } from '../logs/a.ts';\nexport const b = 2;",
      }),
    ).toEqual([
      {
        kind: 'loop',
        text: 'src: import loop across features/exec, features/logs (2 files): features/exec/b.ts → features/logs/a.ts → features/exec/b.ts',
      },
    ]);
  });

  it('allows a loop inside one feature folder, subfolders included', () => {
    expect(
      check({
        'features/tables/service.ts': "import { print } from './printers/pods.ts';\nexport const rows = 1;",
        'features/tables/printers/pods.ts':
          "import { rows } from '../service.ts';\nexport const print = rows;",
      }),
    ).toEqual([]);
  });

  describe('with feature folders isolated', () => {
    const isolated: PackageLayers = { ...layers, siblingsIsolated: ['features/'] };

    it('names a feature that imports another, type-only imports included', () => {
      expect(
        check(
          {
            'features/logs/routes.ts': 'export type Line = string;',
            'features/exec/routes.ts':
              "import type { Line } from '../logs/routes.ts';\nexport type Output = Line;",
          },
          isolated,
        ),
      ).toEqual([
        {
          kind: 'sibling',
          text: 'src: features/exec/routes.ts imports features/logs/routes.ts, a sibling folder in features/',
        },
      ]);
    });

    it('passes features that share through a lower layer and import inside their own folder', () => {
      expect(
        check(
          {
            'kube/lines.ts': 'export const lines = 1;',
            'features/logs/routes.ts':
              "import { lines } from '../../kube/lines.ts';\nexport const logs = lines;",
            'features/exec/files/list.ts':
              "import { lines } from '../../../kube/lines.ts';\nexport const list = lines;",
            'features/exec/routes.ts': "import { list } from './files/list.ts';\nexport const exec = list;",
            'server.ts':
              "import { exec } from './features/exec/routes.ts';\nimport { logs } from './features/logs/routes.ts';\nexport { exec, logs };",
          },
          isolated,
        ),
      ).toEqual([]);
    });
  });

  it('reports a file no layer places', () => {
    expect(check({ 'scratch/notes.ts': 'export {};' })).toEqual([
      { kind: 'unplaced', text: 'src/scratch/notes.ts is in no layer' },
    ]);
  });
});
