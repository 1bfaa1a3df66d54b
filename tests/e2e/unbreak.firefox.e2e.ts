/**
 * "Unbreak this page" in Firefox, through the popup a real click on the toolbar opens
 * (harness/firefox-popup.ts), against the emulator, with the diagnosis test build (its
 * permissions granted at install, a 10-second allow), as unbreak.chromium.e2e.ts does in
 * Chromium. The story and its checks are unbreak-story.ts; Firefox resolves only the names the
 * harness adds to `network.dns.localDomains`, so the story's failing hosts fail as blocked names.
 */
import {
  firefoxPopupListItems,
  setUpDiagnosis,
  TEN_SECONDS,
  testWithDiagnosisFirefox,
} from './diagnosis-harness.ts';
import { resolveLocally } from './harness/firefox-popup.ts';
import { chooseInPopup, clickInPopup, popupStatus } from './harness/firefox-popup-roles.ts';
import { describe, expect } from './harness/index.ts';
import {
  expectAllowsScheduled,
  KEPT_OUTCOME,
  LATER_CDN_HOST,
  loadedDomains,
  NEWS_SITE,
  REVIEW_SUMMARY,
  serveStories,
  unbreakOutcome,
  whitelistOf,
} from './unbreak-story.ts';

const test = testWithDiagnosisFirefox();

/** Two popups, each opened by two clicks, and a 10-second allow to outlive: slow on two cores. */
const SLOW = { timeout: 150_000 };

describe('unbreak this page (Firefox)', () => {
  test(
    'allows the failed domains for a while, notes what loads, and after the end keeps only that',
    SLOW,
    async ({ diagnosisFirefox: firefox, emulator }) => {
      const options = await setUpDiagnosis(firefox.optionsPage, emulator);
      const whitelist = whitelistOf(emulator);
      serveStories(firefox.site);
      const tab = await firefox.openSiteTab(NEWS_SITE, '/story');
      // The emulator's demo account has entries of its own: those stay as they are throughout.
      const before = whitelist();
      const withBefore = (...domains: string[]) => [...before, ...domains].sort();

      const popup = await firefox.openPopup(tab);
      await expect
        .poll(() => firefoxPopupListItems(popup, 'Failed hosts'), { timeout: 10_000 })
        .toHaveLength(2);
      await popup.waitFor(
        "[...document.querySelectorAll('button')].some((b) => b.textContent === 'Unbreak this page' && !b.disabled)",
      );
      await chooseInPopup(popup, 'For how long', `${TEN_SECONDS / 1000} seconds`);
      const clickedAt = Date.now();
      await clickInPopup(popup, 'button', 'Unbreak this page');
      expect(await popupStatus(popup, { contains: '30 to 45 minutes' }, 'Unbreak outcome')).toMatch(
        // In the order the page failed on them: in a run here Firefox reported the image first.
        unbreakOutcome(
          ['broken-cdn.example', 'unused-cdn.example'],
          ['unused-cdn.example', 'broken-cdn.example'],
        ),
      );

      // The emulator's whitelist has exactly those domains, and their end is scheduled.
      expect(whitelist()).toEqual(withBefore('broken-cdn.example', 'unused-cdn.example'));
      await expectAllowsScheduled(options, clickedAt);
      // While it runs, the popup says so: nothing needed yet.
      await popup.waitFor(
        "/So far this page has loaded none of the domains allowed for it/.test(document.body.textContent ?? '')",
      );
      await popup.close();

      // A later visit to the site loads from the CDN, which resolves by now.
      await resolveLocally(firefox.window, [LATER_CDN_HOST]);
      await tab.goto(firefox.site.url(NEWS_SITE, '/later'), { waitUntil: 'load' });
      await expect.poll(() => loadedDomains(options), { timeout: 10_000 }).toEqual(['broken-cdn.example']);

      // The worker's alarm ends both allows.
      await expect.poll(whitelist, { timeout: 30_000, interval: 500 }).toEqual(before);

      // The review, on the site again: only the one that loaded is offered, and kept with one click.
      await tab.goto(firefox.site.url(NEWS_SITE, '/'), { waitUntil: 'load' });
      const review = await firefox.openPopup(tab);
      expect(await firefoxPopupListItems(review, 'Needed by this page')).toEqual([
        expect.stringMatching(/^broken-cdn\.example \d+ requests? loaded/),
      ]);
      expect(await review.run<string>("return document.body.textContent ?? '';")).toContain(REVIEW_SUMMARY);
      expect(whitelist()).toEqual(before);
      await clickInPopup(review, 'button', 'Keep what it needed');
      expect(
        await popupStatus(review, { startsWith: 'Kept on the whitelist for good' }, 'Unbreak outcome'),
      ).toBe(KEPT_OUTCOME);
      expect(whitelist()).toEqual(withBefore('broken-cdn.example'));
    },
  );
});
