/**
 * Opening the options page from the popup, at a section when one fits (`options.html#<section>`,
 * which the options page opens directly): the whitelist behind an "Allowed", Setup when no key
 * is set.
 */
import type { OptionsSection } from './view';

export interface OptionsPageOpener {
  runtime: { openOptionsPage(): Promise<void>; getURL(path: `/${string}`): string };
  tabs: { create(properties: { url: string }): Promise<unknown> };
}

export function openOptionsPage(browser: OptionsPageOpener, section?: OptionsSection): Promise<unknown> {
  if (section === undefined) return browser.runtime.openOptionsPage();
  return browser.tabs.create({ url: browser.runtime.getURL(`/options.html#${section}`) });
}
