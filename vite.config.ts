// Builds the renderer (src/renderer) into dist/renderer, served by the engine at /ui/ and loaded
// by the Electron window. Relative asset URLs (base './') work under both.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./src/renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The UI must stay lean: warn well before a bundle gets heavy.
    chunkSizeWarningLimit: 400,
  },
  server: { host: '127.0.0.1' },
});
