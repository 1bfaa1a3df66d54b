import { defineConfig } from 'vitest/config';

/** End-to-end tests in real browsers (see tests/e2e/harness). Run with `npm run test:e2e`. */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/global-setup.ts'],
    // Browsers are heavy and the machine has two cores: one test file at a time.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
