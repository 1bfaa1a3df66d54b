import type { Browser, CDPSession } from 'puppeteer-core';

/**
 * Lets the browser download into `folder` without asking, each file saved under its download id
 * (two downloads may suggest one name), with download events on. The returned DevTools session
 * reports them: `Browser.downloadWillBegin` (URL, suggested name), `Browser.downloadProgress`.
 */
export async function allowDownloads(browser: Browser, folder: string): Promise<CDPSession> {
  const session = await browser.target().createCDPSession();
  await session.send('Browser.setDownloadBehavior', {
    behavior: 'allowAndName',
    downloadPath: folder,
    eventsEnabled: true,
  });
  return session;
}
