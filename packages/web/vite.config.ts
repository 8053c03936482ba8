import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from './scripts/precompress.ts';

// Relative asset URLs: the agent serves index.html with a <base href> for where the UI lives (`/`, or
// `/c/<cluster_id>/` through the hub), so one build works at any base path.
export const config = defineConfig({
  base: './',
  plugins: [react(), tailwindcss(), precompressPlugin()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] } },
    },
  },
});

// biome-ignore lint/style/noDefaultExport: Vite loads its config as the default export.
export default config;
