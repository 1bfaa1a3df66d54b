import { expect, readVisibleText, test } from './harness/index.ts';

test('the toolbar action on a site tab opens the real popup (Chromium)', async ({ chromium }) => {
  const tab = await chromium.openSiteTab('news.example.com', '/article');
  expect(await tab.evaluate(() => location.hostname)).toBe('news.example.com');

  const popup = await chromium.openPopup(tab);

  expect(popup.url()).toMatch(new RegExp(`^${chromium.extensionUrl('popup.html')}`));
  const shownText = await popup.$eval('body', readVisibleText);
  expect(shownText.length).toBeGreaterThan(0);
});
