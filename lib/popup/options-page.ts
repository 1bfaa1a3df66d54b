/**
 * Opening the options page from the popup, at a section when one fits (`options.html#<section>`,
 * which the options page follows): the whitelist behind an "Allowed", Setup when no key is set.
 * An options page already open is moved to the section and brought to the front, never opened
 * twice. `runtime.openOptionsPage` cannot do that: it loads the page's plain address again in
 * Firefox, dropping the section.
 */
import type { OptionsSection } from './view';

interface TabPlace {
  id?: number;
  windowId?: number;
}

export interface OptionsPageOpener {
  runtime: { openOptionsPage(): Promise<void>; getURL(path: '/options.html'): string };
  tabs: {
    create(properties: { url: string }): Promise<unknown>;
    update(tabId: number, properties: { active: boolean }): Promise<unknown>;
  };
  windows?: { update(windowId: number, properties: { focused: boolean }): Promise<unknown> };
  /** The extension's pages open in tabs (`extension.getViews`); absent where the API is missing. */
  extension?: { getViews(filter: { type: 'tab' }): unknown[] };
}

/** What is used of an open page's window (the types of `getViews` do not describe a window). */
interface OpenPage {
  location: { href: string; hash: string };
  /** The page's own extension API: only it can say which tab it is in. */
  browser?: { tabs: { getCurrent(): Promise<TabPlace | undefined> } };
  chrome?: { tabs: { getCurrent(): Promise<TabPlace | undefined> } };
}

export async function openOptionsPage(api: OptionsPageOpener, section?: OptionsSection): Promise<void> {
  if (section === undefined) return api.runtime.openOptionsPage();
  const page = api.runtime.getURL('/options.html');
  const views = (api.extension?.getViews({ type: 'tab' }) ?? []) as OpenPage[];
  const open = views.find((view) => view.location.href.split('#')[0] === page);
  const place = await (open?.browser ?? open?.chrome)?.tabs.getCurrent().catch(() => undefined);
  if (open === undefined || place?.id === undefined) {
    await api.tabs.create({ url: `${page}#${section}` });
    return;
  }
  open.location.hash = section;
  await api.tabs.update(place.id, { active: true });
  if (place.windowId !== undefined) await api.windows?.update(place.windowId, { focused: true });
}
