/**
 * Two accounts in one browser, in Firefox's real toolbar popup, opened by a real click on the
 * toolbar (harness/firefox-popup.ts) (accounts-scenario.ts).
 */
import { type PopupDriver, twoAccountsScenario } from './accounts-scenario.ts';
import type { FirefoxPopup } from './harness/firefox-popup.ts';
import {
  chooseInPopup,
  clickInPopup,
  popupChosenOption,
  popupStatus,
} from './harness/firefox-popup-roles.ts';
import { describe, expect, test } from './harness/index.ts';

function driverOf(popup: FirefoxPopup): PopupDriver {
  return {
    verdict: (start) => popupStatus(popup, { startsWith: start }, 'Verdict'),
    async press(button) {
      await clickInPopup(popup, 'button', button);
      return popupStatus(popup, /^(?!.*…$).+/, 'Change outcome');
    },
    async chooseAccount(name) {
      // The popup opens again for the chosen account: wait for the new document to show it.
      await popup.run('view.beforeSwitch = true; return true;');
      await chooseInPopup(popup, 'Account', name);
      await popup.waitFor("!('beforeSwitch' in view) && document.readyState === 'complete'");
      expect(await popupChosenOption(popup, 'Account')).toBe(name);
    },
    chosenAccount: () => popupChosenOption(popup, 'Account'),
    close: () => popup.close(),
  };
}

describe('several accounts (Firefox)', () => {
  test('each account gets only its own changes, also the one queued while its service was down', async ({
    firefox,
  }) => {
    await twoAccountsScenario(
      {
        options: firefox.optionsPage,
        async popupOn(host) {
          const tab = await firefox.openSiteTab(host, '/page');
          return driverOf(await firefox.openPopup(tab));
        },
      },
      { deliveryTimeoutMs: 90_000 },
    );
  }, 300_000);
});
