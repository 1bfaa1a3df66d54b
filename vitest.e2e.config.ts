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
    // expect.poll waits for what a person would wait for (a status, a list, a switch): vitest's
    // default of 1 s is shorter than a busy two-core CI machine sometimes takes to re-render.
    // A poll still fails if the awaited state never comes; it only takes longer to say so.
    expect: { poll: { timeout: 10_000 } },
  },
});
