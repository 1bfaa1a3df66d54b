import type { Page } from 'puppeteer-core';

/**
 * The extension's `storage.local`, read and written from one of its own pages: how a test sets
 * up state the product would have stored (a short client time limit, cached views) or checks
 * what it stored.
 */
type ExtensionGlobal = {
  chrome: {
    storage: {
      local: {
        set(items: Record<string, unknown>): Promise<void>;
        get(keys: string | null): Promise<Record<string, unknown>>;
        remove(keys: string | string[]): Promise<void>;
      };
    };
  };
};

export function storeValues(page: Page, items: Record<string, unknown>): Promise<void> {
  return page.evaluate(
    (values) => (globalThis as unknown as ExtensionGlobal).chrome.storage.local.set(values),
    items,
  );
}

export function storedValue(page: Page, key: string): Promise<unknown> {
  return page.evaluate(
    async (name) => (await (globalThis as unknown as ExtensionGlobal).chrome.storage.local.get(name))[name],
    key,
  );
}

/**
 * The stable id of the active account (lib/accounts): every change request names the account the
 * page shows (lib/messaging/protocol.ts), so a test that sends one as a page would names it too.
 */
export async function activeAccountId(page: Page): Promise<string> {
  const stored = (await storedValue(page, 'accounts')) as { active?: unknown } | undefined;
  if (typeof stored?.active !== 'string') throw new Error('No active account is stored');
  return stored.active;
}

/** Removes every stored key that `pattern` (a RegExp source) matches. */
export function removeStoredKeys(page: Page, pattern: string): Promise<void> {
  return page.evaluate(async (source) => {
    const local = (globalThis as unknown as ExtensionGlobal).chrome.storage.local;
    const keys = Object.keys(await local.get(null)).filter((key) => new RegExp(source).test(key));
    await local.remove(keys);
  }, pattern);
}

/** Dismisses every dialog the page opens and keeps its message: a dialog would mean a script ran. */
export function watchDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(dialog.message());
    void dialog.dismiss();
  });
  return seen;
}
