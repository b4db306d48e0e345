import { defineConfig } from 'vitest/config';

// Unit and integration tests on plain Node (no Electron, no browser). Playwright specs live in e2e/.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['test/support/python-global-setup.ts', 'test/support/postgres-global-setup.ts'],
  },
});
