/**
 * "Unbreak this page" in Chromium, through the real toolbar action, against the emulator. Like
 * diagnosis.chromium.e2e.ts it loads the diagnosis test build (optional permissions granted at
 * install, a 10-second choice besides 1, 8 and 24 hours), so the end of the allows happens within
 * the test; nothing in the product is shortened. The story and its checks are unbreak-story.ts;
 * Chromium's resolver rules make the story's failing hosts fail as blocked names.
 */
import {
  popupListItems as listItems,
  setUpDiagnosis,
  TEN_SECONDS,
  testWithDiagnosisChromium,
} from './diagnosis-harness.ts';
import { byRole, describe, expect, waitForStatus } from './harness/index.ts';
import {
  expectAllowsScheduled,
  KEPT_OUTCOME,
  loadedDomains,
  NEWS_SITE,
  REVIEW_SUMMARY,
  serveStories,
  UNRESOLVABLE,
  unbreakOutcome,
  whitelistOf,
} from './unbreak-story.ts';

const test = testWithDiagnosisChromium(UNRESOLVABLE);

describe('unbreak this page (Chromium)', () => {
  test('allows the failed domains for a while, notes what loads, and after the end keeps only that', async ({
    diagnosisChromium: chromium,
    emulator,
  }) => {
    const options = await setUpDiagnosis(await chromium.openOptions(), emulator);
    const whitelist = whitelistOf(emulator);
    serveStories(chromium.site);
    const tab = await chromium.openSiteTab(NEWS_SITE, '/story');
    // The emulator's demo account has entries of its own: those stay as they are throughout.
    const before = whitelist();
    const withBefore = (...domains: string[]) => [...before, ...domains].sort();

    const popup = await chromium.openPopup(tab);
    await expect.poll(() => listItems(popup, 'Failed hosts'), { timeout: 10_000 }).toHaveLength(2);
    const unbreak = byRole(popup, 'button', 'Unbreak this page');
    await popup.waitForFunction(() =>
      [...document.querySelectorAll('button')].some(
        (b) => b.textContent === 'Unbreak this page' && !b.disabled,
      ),
    );
    await (await byRole(popup, 'combobox', 'For how long').waitHandle()).select(String(TEN_SECONDS));
    const clickedAt = Date.now();
    await unbreak.click();
    expect(await waitForStatus(popup, { contains: '30 to 45 minutes' }, { name: 'Unbreak outcome' })).toMatch(
      unbreakOutcome(['broken-cdn.example', 'unused-cdn.example']),
    );

    // The emulator's whitelist has exactly those domains, and their end is scheduled.
    expect(whitelist()).toEqual(withBefore('broken-cdn.example', 'unused-cdn.example'));
    await expectAllowsScheduled(options, clickedAt);
    // While it runs, the popup says so: nothing needed yet.
    await expect
      .poll(() => popup.evaluate(() => document.body.textContent ?? ''))
      .toMatch(/So far this page has loaded none of the domains allowed for it/);

    // A later visit to the site loads from the CDN.
    await tab.goto(chromium.site.url(NEWS_SITE, '/later'), { waitUntil: 'load' });
    await expect.poll(() => loadedDomains(options), { timeout: 10_000 }).toEqual(['broken-cdn.example']);

    // The worker's alarm ends both allows (unpacked extensions may set alarms shorter than 30 s).
    await expect.poll(whitelist, { timeout: 30_000, interval: 500 }).toEqual(before);

    // The review, on the site again: only the one that loaded is offered, and kept with one click.
    await tab.goto(chromium.site.url(NEWS_SITE, '/'), { waitUntil: 'load' });
    const review = await chromium.openPopup(tab);
    expect(await listItems(review, 'Needed by this page')).toEqual([
      expect.stringMatching(/^broken-cdn\.example \d+ requests? loaded/),
    ]);
    expect(await review.evaluate(() => document.body.textContent ?? '')).toContain(REVIEW_SUMMARY);
    expect(whitelist()).toEqual(before);
    await byRole(review, 'button', 'Keep what it needed').click();
    expect(
      await waitForStatus(
        review,
        { startsWith: 'Kept on the whitelist for good' },
        { name: 'Unbreak outcome' },
      ),
    ).toBe(KEPT_OUTCOME);
    expect(whitelist()).toEqual(withBefore('broken-cdn.example'));
  });
});
