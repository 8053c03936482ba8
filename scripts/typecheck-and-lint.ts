import { join } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

/**
 * `tsc -p tsconfig.json` and `eslint .` over one TypeScript program (ADR 0089). The type-aware eslint rules ask
 * the checker about the same files tsc has just checked: run apart, eslint built and checked its own program
 * again (about 80 CPU seconds beside tsc's 40); here its rules find the types already computed (about 50 for
 * both). The web UI is neither in tsconfig.json nor linted by eslint. Run from the repository root; prints one
 * JSON object, `{typescript, eslint}`: each tool's report as its command line prints it, empty when clean.
 */
async function typecheckAndLint(root: string): Promise<{ typescript: string; eslint: string }> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`no tsconfig.json in ${root}`);
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    ...(config.projectReferences ? { projectReferences: config.projectReferences } : {}),
  });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  const typescript = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, programs: [program] } } },
  });
  const results = await eslint.lintFiles(['.']);
  const report = await (await eslint.loadFormatter('stylish')).format(results);
  return { typescript: typescript.trim(), eslint: report.trim() };
}

process.stdout.write(`${JSON.stringify(await typecheckAndLint(process.cwd()))}\n`);
