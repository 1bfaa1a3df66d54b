import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';

// Firefox needs a fixed add-on id so storage survives reinstalls and tests can find it.
const GECKO_ID = 'dns-filter-companion@example.org';

export default defineConfig({
  manifestVersion: 3,
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({
    plugins: [preact()],
  }),
  manifest: ({ browser }) => ({
    name: 'DNS Filter Companion',
    description:
      'See whether a site is blocked by your DNS filter and fix it in one click; manage your filtering account.',
    permissions: ['storage'],
    // The default service; other origins are asked for when the user saves one.
    host_permissions: ['https://my.cleanbrowsing.org/*'],
    // Custom service origins are asked for at runtime, when the user configures one.
    optional_host_permissions: ['https://*/*'],
    action: { default_title: 'DNS Filter Companion' },
    ...(browser === 'firefox'
      ? { browser_specific_settings: { gecko: { id: GECKO_ID, strict_min_version: '115.0' } } }
      : {}),
  }),
});
