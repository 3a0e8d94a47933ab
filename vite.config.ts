import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The client lives in client/; the production build goes to dist/, which `npm start` serves. */
export default defineConfig({
  root: 'client',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    sourcemap: false,
    // scripts/bench-bundle.ts follows the entry's static imports through the manifest
    // (dist/.vite/manifest.json) to measure what a first visit downloads.
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] } } },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
});
