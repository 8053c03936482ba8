import { defineConfig } from 'rolldown';

/**
 * The release build of `binnacle` (ADR 0022): one ES module per command, so `binnacle agent` loads the agent's code
 * alone, with no TypeScript to strip at start-up. Native addons and their optional drivers stay in node_modules.
 */
export default defineConfig({
  input: { binnacle: 'packages/cli/src/binnacle.ts' },
  platform: 'node',
  external: [
    'better-sqlite3',
    '@lydell/node-pty',
    'pg-native',
    'cpu-features',
    'bufferutil',
    'utf-8-validate',
  ],
  output: {
    cleanDir: true,
    dir: 'packages/cli/dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    // V8 keeps every loaded module's source text: without comments and whitespace, and in ASCII (one byte a
    // character instead of two for a file with one `→` in it), the agent's start holds ~6 MB less of it. Names stay
    // unmangled and code uncompressed, so stack traces and CPU profiles still name our functions.
    minify: { compress: false, mangle: false, codegen: { removeWhitespace: true, asciiOnly: true } },
    comments: false,
  },
});
