import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLayers, repositoryLayers } from './layers.ts';
import { routeHookCasts, shadowedSchemas, webTypeFindings } from './web-types.ts';
import { undeclaredImports, workspaceCycles, workspaces } from './workspace-deps.ts';

const root = resolve(import.meta.dirname, '..');
const bin = (name: string) => resolve(root, 'node_modules/.bin', name);

/** Runs a checker; resolves with its exit code and output (stdout, then stderr), so a failure shows what it found. */
function check(command: string, args: string[]): Promise<{ code: number; stdout: string; output: string }> {
  return new Promise((resolveCheck) => {
    execFile(command, args, { cwd: root, maxBuffer: 32 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolveCheck({ code, stdout, output: `${stdout}${stderr}`.trim() });
    });
  });
}

/** tsc's and eslint's reports over tsconfig.json's files, from one program (scripts/typecheck-and-lint.ts). */
let reports: { typescript: string; eslint: string };

// The README's test command runs these with the suite, so CI counts them like any other test.
describe('static checks', () => {
  beforeAll(async () => {
    const result = await check(bin('node'), ['scripts/typecheck-and-lint.ts']);
    expect(result.code, result.output).toBe(0);
    reports = JSON.parse(result.stdout) as typeof reports;
  });

  it('type-checks (tsc, strict)', () => {
    expect(reports.typescript).toBe('');
  });

  it('type-checks the web UI (tsc, strict, DOM)', async () => {
    const result = await check(bin('tsc'), ['-p', 'packages/web/tsconfig.json']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it('is formatted and passes Biome', async () => {
    const result = await check(bin('biome'), [
      'check',
      '--no-errors-on-unmatched',
      '--error-on-warnings',
      '.',
    ]);
    expect(result.code, result.output).toBe(0);
  });

  it('passes the promise rules (eslint, zero warnings)', () => {
    expect(reports.eslint).toBe('');
  });

  it('declares in each workspace what it imports (tests and src/testing/ may use devDependencies)', () => {
    const undeclared = workspaces(root).flatMap((w) =>
      undeclaredImports(w).map((line) => `${w.manifest.name}: ${line}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('keeps the layering of the agent and the hub: nothing runs up, no feature imports another, no loop (ADR 0091)', () => {
    expect(checkLayers(root, repositoryLayers).map((p) => `${p.kind}: ${p.text}`)).toEqual([]);
  });

  it('has no dependency cycle between workspaces', () => {
    expect(workspaceCycles(workspaces(root))).toEqual([]);
  });

  it("types the web UI's API shapes and route params from their sources, not by hand or by a cast", () => {
    expect(webTypeFindings(root)).toEqual([]);
  });

  it('finds a cast route hook and a hand-written twin of an API schema', () => {
    const source = [
      'const a = useSearch({ strict: false }) as { q?: string };',
      "const b = useParams<Router, '/x'>({ from: '/x' });",
      'const c = route.useSearch({ select: (s) => s.q })',
      '  as string;',
      'interface TimelineEvent { id: string }',
      'type ImageFileNode = { name: string };',
      "type TrafficFlowPair = Answer<'/api/traffic/flows'>;",
    ].join('\n');
    expect(routeHookCasts(source)).toEqual([1, 3]);
    expect(shadowedSchemas(source, new Set(['TimelineEvent', 'ImageFileNode', 'TrafficFlowPair']))).toEqual([
      5, 6,
    ]);
  });
});
