/**
 * Opening the options page from the popup, at a section when one fits (`options.html#<section>`,
 * which the options page follows): the whitelist behind an "Allowed", Setup when no key is set.
 * An options page already open is brought to the front and moved to the section, never opened
 * twice.
 */
import type { OptionsSection } from './view';

export interface OptionsPageOpener {
  runtime: { openOptionsPage(): Promise<void>; getURL(path: '/options.html'): string };
  tabs: { create(properties: { url: string }): Promise<unknown> };
  /** The extension's pages open in tabs (`extension.getViews`); absent where the API is missing. */
  extension?: { getViews(filter: { type: 'tab' }): unknown[] };
}

/** What is used of an open page's window (the types of `getViews` do not describe a window). */
interface OpenPage {
  location: { href: string; hash: string };
}

export async function openOptionsPage(browser: OptionsPageOpener, section?: OptionsSection): Promise<void> {
  if (section !== undefined) {
    const page = browser.runtime.getURL('/options.html');
    const views = (browser.extension?.getViews({ type: 'tab' }) ?? []) as OpenPage[];
    const open = views.find((view) => view.location.href.split('#')[0] === page);
    if (open === undefined) {
      await browser.tabs.create({ url: `${page}#${section}` });
      return;
    }
    open.location.hash = section;
  }
  await browser.runtime.openOptionsPage();
}
