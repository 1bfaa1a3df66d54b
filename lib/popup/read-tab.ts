/**
 * The tab the popup is about. `popup.html?tabId=<id>` shows that tab (the detached view);
 * otherwise the active tab, whose address `activeTab` reveals after the toolbar click. No `tabs`
 * permission: without access the tab comes back without a URL, and the popup says so. Used by the
 * popup's first script (first-script.ts) as well as the popup, so no WXT import. The one place the
 * popup learns its tab: page diagnosis finds the tab's record by the id read here.
 */
export interface TabAddress {
  id: number | undefined;
  url: string | undefined;
}

interface TabsApi {
  get(id: number): Promise<{ url?: string }>;
  query(query: { active: boolean; currentWindow: boolean }): Promise<Array<{ id?: number; url?: string }>>;
}

export async function readTabAddress(tabs: TabsApi, search: string): Promise<TabAddress> {
  const requested = new URLSearchParams(search).get('tabId');
  if (requested !== null) {
    const id = Number(requested);
    if (!Number.isSafeInteger(id) || id < 0) return { id: undefined, url: undefined };
    return { id, url: (await tabs.get(id)).url };
  }
  const [tab] = await tabs.query({ active: true, currentWindow: true });
  return { id: tab?.id, url: tab?.url };
}
