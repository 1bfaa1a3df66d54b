import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineConfig({
  plugins: [WxtVitest(), preact()],
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/contract/**/*.test.ts'],
    environment: 'happy-dom',
    // Texts come from locales/en.yml, as in an English browser (lib/i18n).
    setupFiles: ['tests/unit/i18n/setup.ts'],
    restoreMocks: true,
    // CI machines have 2 cores shared with browsers; a slow run is not a failing one.
    testTimeout: 20_000,
  },
});
