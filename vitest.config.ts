import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Integration tests spawn real processes and real sockets; give them room on 2 cores.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: ['src/renderer/**', '**/node_modules/**'] },
      },
      // The renderer's stores and components, in a DOM (happy-dom) without Node's globals leaking in.
      {
        extends: true,
        test: { name: 'renderer', include: ['src/renderer/**/*.test.{ts,tsx}'], environment: 'happy-dom' },
      },
    ],
  },
});
