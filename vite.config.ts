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
    // The UI must stay lean: warn well before a bundle gets heavy. Screens and heavy parts (the
    // playground's form generator, diffs, charts) are loaded when first used (lazy imports);
    // React itself is a chunk of its own, cached across builds that change only our code.
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      output: {
        manualChunks: (id: string) => (/node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id) ? 'react' : undefined),
      },
    },
  },
  server: { host: '127.0.0.1' },
});
