/**
 * Small helpers for driving extension pages from the bench. Everything that runs in the page is
 * passed as a string: tsx compiles this script with helpers (`__name`) that a serialised
 * function would not find inside the page (scripts/demo.ts does the same).
 */
import type { Page } from 'puppeteer-core';
import { type EmulatorHandle, startEmulator } from '../../emulator/index.ts';
import { copyName } from '../../lib/settings/start-copies.ts';

/** The element with this role and accessible name (puppeteer's built-in ARIA query). */
export const aria = (role: string, name: string) => `::-p-aria([name="${name}"][role="${role}"])`;

/** Evaluates `expression` in the page (awaiting a promise it gives) and returns its JSON value. */
export function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

/** Waits for a performance mark and returns the start time of its latest entry (ms from navigation start). */
export async function waitForMark(page: Page, name: string, timeout = 30_000): Promise<number> {
  const entry = `performance.getEntriesByName(${JSON.stringify(name)}, 'mark').at(-1)`;
  await page.waitForFunction(`${entry} !== undefined`, { timeout, polling: 10 });
  return inPage<number>(page, `${entry}.startTime`);
}

/** Waits until a status region shows text matching `pattern` and returns it. */
export async function statusMatching(page: Page, pattern: RegExp, timeout = 30_000): Promise<string> {
  const read = `[...document.querySelectorAll('[role=status]')].map((e) => e.textContent.trim()).find((t) => ${pattern}.test(t))`;
  const handle = await page.waitForFunction(read, { timeout, polling: 20 });
  return String(await handle.jsonValue());
}

/** Sets up the extension on its options page, as a person does (Setup section, Form A). */
export async function configureExtension(page: Page, emulator: EmulatorHandle): Promise<void> {
  // The page fills the form from storage right after it renders; typing before that is lost.
  for (let attempt = 1; ; attempt++) {
    await page.locator(aria('textbox', 'API key')).fill(emulator.key);
    await page.locator(aria('textbox', 'Base URL')).fill(emulator.url);
    await page.select(aria('combobox', 'API form'), 'A');
    const kept = await inPage<boolean>(
      page,
      `[...document.querySelectorAll('input')].some((i) => i.value === ${JSON.stringify(emulator.url)})`,
    );
    if (kept) break;
    if (attempt === 3) throw new Error('The Setup fields did not keep the values typed into them');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await page.locator(aria('button', 'Save')).click();
  // The outcome, not "Saved. Testing the connection…": the welcome shows the Overview once its
  // test connects, which would take the page from under whatever the bench opens next.
  await statusMatching(page, /^Saved(?!.*…$)/);
}

/** Resolves once the emulator has received no call for `quietMs`. */
export async function untilQuiet(emulator: EmulatorHandle, quietMs = 500, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let count = -1;
  while (Date.now() < deadline) {
    const now = emulator.admin.calls().length;
    if (now === count) return;
    count = now;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

/**
 * In-page code that forgets Firefox's start copies of the names in `namesExpr` (an expression),
 * as the product's own writes do (lib/settings/start-copies.ts): the bench writes storage beside
 * the product. A name's copy is `copyName(name)` in storage.session.
 */
export const forgetStartCopiesJs = (namesExpr: string): string =>
  `(chrome.storage.session ? chrome.storage.session.remove(${namesExpr}.map((name) => ${JSON.stringify(copyName(''))} + name)) : undefined)`;

/** In-page code that removes the storage.local keys in `namesExpr` (an expression), and their copies. */
const removeJs = (namesExpr: string): string =>
  `chrome.storage.local.remove(${namesExpr}).then(() => ${forgetStartCopiesJs(namesExpr)})`;

/** Removes the storage.local keys `names`. */
export function removeStored(page: Page, names: string[]): Promise<void> {
  return inPage<void>(page, removeJs(JSON.stringify(names)));
}

/** Removes storage.local keys (and WXT's `<key>$` metadata) whose name matches. */
export function removeStoredKeys(page: Page, pattern: RegExp): Promise<string[]> {
  return inPage<string[]>(
    page,
    `chrome.storage.local.get(null).then(async (all) => {
      const keys = Object.keys(all).filter((key) => ${pattern}.test(key));
      await ${removeJs('keys')};
      return keys;
    })`,
  );
}

export function setStored(page: Page, items: Record<string, unknown>): Promise<void> {
  const names = JSON.stringify(Object.keys(items));
  return inPage<void>(
    page,
    `chrome.storage.local.set(${JSON.stringify(items)}).then(() => ${forgetStartCopiesJs(names)})`,
  );
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The worker's daily history snapshot alarm (lib/history/service.ts, `HISTORY_DAILY_ALARM`). */
const HISTORY_ALARM = 'history-daily';

/**
 * Waits for the worker's first history snapshot, which its alarm takes a minute after it is
 * created (docs/history.md, "When snapshots are taken"), and for the service to be quiet again: its
 * calls would otherwise be counted against the popup opening they fall into. `page` is a page of
 * the extension; one with no such alarm (an older baseline) is not waited for.
 */
export async function untilFirstSnapshot(page: Page, emulator: EmulatorHandle): Promise<void> {
  const due = await inPage<number | null>(
    page,
    `chrome.alarms.get(${JSON.stringify(HISTORY_ALARM)}).then((alarm) => alarm?.scheduledTime ?? null)`,
  );
  // Due within the hour: the first ring, not the next day's.
  if (due !== null && due - Date.now() < 3_600_000) await sleep(Math.max(0, due - Date.now()) + 1_000);
  await untilQuiet(emulator);
}

/**
 * Adds `count` more accounts in the options page's Accounts section, each with a service of its
 * own (an emulator with its own key), as a person adds them: Test connection, send the key, Save
 * account. The active account stays the one configured first. Returns the extra services, for
 * the caller to close: started here, or `existing` ones (another extension of the same run gets
 * the same accounts).
 */
export async function addAccounts(
  page: Page,
  count: number,
  existing: readonly EmulatorHandle[] = [],
): Promise<EmulatorHandle[]> {
  const services: EmulatorHandle[] = [];
  const inAccounts = (role: string, name: string) =>
    page.locator(`${aria('region', 'Accounts')} ${aria(role, name)}`);
  const activeBefore = await inPage<string | null>(
    page,
    `chrome.storage.local.get('accounts').then(({ accounts }) => accounts?.active ?? null)`,
  );
  for (let n = 1; n <= count; n++) {
    const service = existing[n - 1] ?? (await startEmulator({ port: 0, key: `bench-account-${n}-key` }));
    services.push(service);
    // The section's own address (lib/options/routes.ts), as the popup's links open it.
    await inPage(page, `location.hash = 'accounts'`);
    await inAccounts('button', 'Add account').click();
    await inAccounts('textbox', 'Account name').fill(`Client ${n}`);
    await inAccounts('textbox', 'API key').fill(service.key);
    await inAccounts('textbox', 'Base URL').fill(service.url);
    await inAccounts('button', 'Test connection').click();
    await page.locator(aria('button', 'Send the key')).click();
    await statusMatching(page, /^Connected/);
    await inAccounts('button', 'Save account').click();
    await page.waitForFunction(
      `chrome.storage.local.get('accounts').then(({ accounts }) => accounts?.accounts?.length === ${n + 1})`,
      { timeout: 15_000, polling: 50 },
    );
  }
  const accounts = await inPage<{ active: string | null; accounts: unknown[] }>(
    page,
    `chrome.storage.local.get('accounts').then(({ accounts }) => accounts)`,
  );
  if (accounts.accounts.length !== count + 1 || (activeBefore !== null && accounts.active !== activeBefore))
    throw new Error(`Adding ${count} accounts left ${accounts.accounts.length}, active ${accounts.active}`);
  return services;
}
