/** Two accounts in one browser, in Chromium's real toolbar popup (accounts-scenario.ts). */
import type { Page } from 'puppeteer-core';
import { chosenOption, type PopupDriver, twoAccountsScenario } from './accounts-scenario.ts';
import { byRole, chooseOption, describe, expect, test, waitForStatus } from './harness/index.ts';

function driverOf(popup: Page): PopupDriver {
  return {
    verdict: (start) => waitForStatus(popup, { startsWith: start }, { name: 'Verdict' }),
    async press(button) {
      await byRole(popup, 'button', button).click();
      return waitForStatus(popup, /^(?!.*…$).+/, { name: 'Change outcome' });
    },
    async chooseAccount(name) {
      // The popup opens again for the chosen account: wait for the new document to show it.
      await popup.evaluate(() => Object.assign(window, { beforeSwitch: true }));
      await chooseOption(popup, 'Account', name);
      await popup.waitForFunction(() => !('beforeSwitch' in window) && document.readyState === 'complete', {
        timeout: 15_000,
      });
      expect(await chosenOption(popup, 'Account')).toBe(name);
    },
    chosenAccount: () => chosenOption(popup, 'Account'),
    close: () => popup.close(),
  };
}

describe('several accounts (Chromium)', () => {
  test('each account gets only its own changes, also the one queued while its service was down', async ({
    chromium,
  }) => {
    const options = await chromium.openOptions();
    await twoAccountsScenario(
      {
        options,
        async popupOn(host) {
          const tab = await chromium.openSiteTab(host, '/page');
          return driverOf(await chromium.openPopup(tab));
        },
      },
      { deliveryTimeoutMs: 90_000 },
    );
  }, 240_000);
});
