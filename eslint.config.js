import tseslint from 'typescript-eslint';

// Biome formats and lints everything else; eslint runs only the type-aware promise rules Biome lacks.
const promiseRules = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/await-thenable': 'error',
  '@typescript-eslint/require-await': 'error',
  '@typescript-eslint/return-await': ['error', 'in-try-catch'],
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'packages/web/dist/**',
      'packages/web/src/api/generated/**',
      'bench/results/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  {
    files: ['**/*.ts'],
    ignores: ['packages/web/**'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: promiseRules,
  },
  // The web UI has its own tsconfig (DOM, JSX, bundler resolution): its files are typed by that project.
  {
    files: [
      'packages/web/src/**/*.{ts,tsx}',
      'packages/web/vite.config.ts',
      'packages/web/scripts/precompress.ts',
    ],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: './packages/web/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: promiseRules,
  },
);
