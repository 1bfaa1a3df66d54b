import { test } from 'vitest';
import { startEmulator } from '../../emulator/index.ts';
import { byRole } from './harness/aria.ts';
import { launchChromium } from './harness/chromium.ts';
import { configureExtension } from './harness/options-page.ts';

const out = process.env.SHOTS_DIR ?? '/tmp/shots';
const views = (process.env.SHOTS_VIEWS ?? 'overview,categories,logs,setup,networks').split(',');
test('shots', { timeout: 200_000 }, async () => {
  const emulator = await startEmulator({ port: 0, key: 'demo-key-0000' });
  const session = await launchChromium();
  try {
    const page = await session.openOptions();
    const shoot = async (name: string) => {
      for (const width of [1280, 600]) {
        for (const scheme of ['light', 'dark'] as const) {
          await page.setViewport({ width, height: 800 });
          await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
          await new Promise((r) => setTimeout(r, 400));
          await page.screenshot({ path: `${out}/${name}-${width}-${scheme}.png` });
        }
      }
    };
    await page.setViewport({ width: 1280, height: 800 });
    await byRole(page, 'textbox', 'API key').wait();
    await shoot('welcome');
    console.log(
      'saved:',
      await configureExtension(page, { baseUrl: emulator.url, key: emulator.key, form: 'A' }),
    );
    await byRole(page, 'heading', 'Overview').wait();
    await new Promise((r) => setTimeout(r, 1500));
    await shoot('overview');
    for (const view of views.filter((v) => v !== 'overview')) {
      await page.evaluate((hash) => {
        location.hash = hash;
      }, view);
      await new Promise((r) => setTimeout(r, 1500));
      await shoot(view);
    }
    await page.setViewport({ width: 600, height: 800 });
    await byRole(page, 'button', 'Sections').click();
    await new Promise((r) => setTimeout(r, 300));
    await page.screenshot({ path: `${out}/menu-open-600.png` });
  } finally {
    await session.close();
    await emulator.close();
  }
});
