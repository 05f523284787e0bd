import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Integration tests spawn real processes and real sockets; give them room on 2 cores.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
