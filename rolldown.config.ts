import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'rolldown';

/**
 * `node:http` loaded through `require`, not as an ES module: Node builds an ES module's view of a built-in by
 * reading each of its exports, and three of `node:http`'s (WebSocket, CloseEvent, MessageEvent) are getters that
 * load all of undici — a tenth of the agent's start-up, for classes it never uses (ADR 0113).
 */
function httpWithoutUndici(): Plugin {
  const id = '\0binnacle:node-http';
  const lazy = new Set(['WebSocket', 'CloseEvent', 'MessageEvent']);
  const names = Object.keys(createRequire(import.meta.url)('node:http')).filter((name) => !lazy.has(name));
  return {
    name: 'http-without-undici',
    resolveId: (source) => (source === 'node:http' || source === 'http' ? id : undefined),
    load: (loaded) =>
      loaded === id
        ? [
            "import { createRequire } from 'node:module';",
            "const http = createRequire(import.meta.url)('node:http');",
            'export default http;',
            `export const { ${names.join(', ')} } = http;`,
          ].join('\n')
        : undefined,
  };
}

/**
 * The release build of `binnacle` (ADR 0022): one ES module per command, so `binnacle agent` loads the agent's code
 * alone, with no TypeScript to strip at start-up. Native addons and their optional drivers stay in node_modules.
 */
export default defineConfig({
  input: { binnacle: 'packages/cli/src/binnacle.ts' },
  platform: 'node',
  plugins: [httpWithoutUndici()],
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
