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
  },
});
