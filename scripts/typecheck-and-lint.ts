import { join } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

/** The program of a tsconfig file (its files, options and references), with the config file's own errors. */
function programOf(tsconfig: string): { program: ts.Program; errors: readonly ts.Diagnostic[] } {
  const config = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`no ${tsconfig}`);
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    ...(config.projectReferences ? { projectReferences: config.projectReferences } : {}),
  });
  return { program, errors: config.errors };
}

/**
 * `tsc -p tsconfig.json` and `eslint .` over one TypeScript program (ADR 0089). The type-aware eslint rules ask
 * the checker about the same files tsc has just checked: run apart, eslint built and checked its own program
 * again (about 80 CPU seconds beside tsc's 40); here its rules find the types already computed (about 50 for
 * both). The web UI is not in tsconfig.json (`tsc -p packages/web/tsconfig.json` checks it): eslint's rules read
 * its files through a second program, of its own tsconfig. Run from the repository root; prints one JSON object,
 * `{typescript, eslint}`: each tool's report as its command line prints it, empty when clean.
 */
async function typecheckAndLint(root: string): Promise<{ typescript: string; eslint: string }> {
  const { program, errors } = programOf(join(root, 'tsconfig.json'));
  const web = programOf(join(root, 'packages/web/tsconfig.json')).program;
  const diagnostics = [...errors, ...ts.getPreEmitDiagnostics(program)];
  const typescript = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false, programs: [program, web] } },
    },
  });
  const results = await eslint.lintFiles(['.']);
  const report = await (await eslint.loadFormatter('stylish')).format(results);
  return { typescript: typescript.trim(), eslint: report.trim() };
}

process.stdout.write(`${JSON.stringify(await typecheckAndLint(process.cwd()))}\n`);
