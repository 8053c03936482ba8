import { checkLayers, repositoryLayers } from './layers.ts';

// npm run check:layers (ADR 0091).

const problems = checkLayers(process.cwd(), repositoryLayers);
for (const problem of problems) console.log(`${problem.kind}: ${problem.text}`);
console.log(
  problems.length === 0
    ? 'check:layers: no import runs up the layering or into a sibling feature, no import loop spans two folders'
    : `check:layers: ${problems.length} problems`,
);
process.exitCode = problems.length === 0 ? 0 : 1;
