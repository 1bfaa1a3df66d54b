/**
 * The passphrase lock (docs/lock.md) for the bench's locked popups: turned on and off through
 * the product's options page, as a person does; between two openings, locked and unlocked by
 * writing storage.session as `lockNow` and `unlock` (lib/lock/state.ts) do, without the key
 * derivation each time (its own figure is the `lock` group's).
 */
import type { Page } from 'puppeteer-core';
import { inPage, sleep } from './page.ts';

const PASSPHRASE = 'bench passphrase, long enough';
/** What unlocking puts into storage.session and locking ("strict", the default) takes out. */
const UNLOCKED_NAMES = ['apiKey', 'accountKeys', 'lockKey', 'lockSession'];

/**
 * Steps in the options page, as plain DOM code passed as strings: the e2e harness's role query
 * is a serialised function that tsx's helpers break (./page.ts), and Firefox's BiDi has no ARIA
 * query. A field is found by its label's text, a button by its text, as the UI contract names them.
 */
const field = (label: string) =>
  `[...document.querySelectorAll('label')].find((l) => l.textContent.trim() === ${JSON.stringify(label)})?.control`;
const button = (text: string) =>
  `[...document.querySelectorAll('button')].find((b) => b.textContent.trim() === ${JSON.stringify(text)} && !b.disabled)`;

async function until(page: Page, check: string, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await inPage<boolean>(page, `Boolean(${check})`).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`The options page never showed ${what}`);
    await sleep(100);
  }
}

async function fill(page: Page, label: string, value: string): Promise<void> {
  await until(page, field(label), `the field ${label}`);
  await inPage(
    page,
    `(() => { const input = ${field(label)}; input.focus(); input.value = ${JSON.stringify(value)};
      input.dispatchEvent(new Event('input', { bubbles: true })); return true; })()`,
  );
}

async function click(page: Page, text: string): Promise<void> {
  await until(page, button(text), `the button ${text}`);
  await inPage(page, `(${button(text)}.click(), true)`);
}

/** The Lock section of the options page, once the page has read its storage. */
async function lockSection(page: Page): Promise<void> {
  await until(page, 'document.querySelector(\'a[href="#lock"]\')', 'its Lock link');
  await until(page, '!document.querySelector(\'[aria-busy="true"]\')', 'its sections read');
  await inPage(page, '(document.querySelector(\'a[href="#lock"]\').click(), true)');
}

export interface LockSwitch {
  /** Locked as by Lock now: the derived key, the session mark and the keys leave storage.session. */
  lock(): Promise<void>;
  /** Unlocked as by the right passphrase: what it put into storage.session, put back. */
  unlock(): Promise<void>;
  /** Unlocked, then turned off through the options page: the keys in plain again, as before. */
  turnOff(): Promise<void>;
}

/**
 * Turns the lock on in the options page that `openOptions` gives (and `closeOptions` leaves),
 * with `control`, a quiet page of the product, to switch it between openings.
 */
export async function turnOnLock(
  control: Page,
  openOptions: () => Promise<Page>,
  closeOptions: (page: Page) => Promise<void>,
): Promise<LockSwitch> {
  const options = await openOptions();
  await lockSection(options);
  await fill(options, 'Passphrase', PASSPHRASE);
  await fill(options, 'Repeat passphrase', PASSPHRASE);
  await click(options, 'Turn on lock');
  await until(options, button('Lock now'), 'Lock now');
  await closeOptions(options);
  const unlocked = await inPage<Record<string, unknown>>(
    control,
    `chrome.storage.session.get(${JSON.stringify(UNLOCKED_NAMES)})`,
  );
  if (typeof unlocked.lockKey !== 'string' && typeof unlocked.lockKey !== 'object')
    throw new Error('Turning the lock on left no unlocked session');
  const lock = () =>
    inPage<void>(
      control,
      `chrome.storage.session.set({ accountKeys: {} }).then(() =>
        chrome.storage.session.remove(['lockKey', 'lockSession', 'apiKey']))`,
    );
  const unlock = () =>
    inPage<void>(
      control,
      `chrome.storage.session.set({ ...${JSON.stringify(unlocked)},
        lockSession: { unlockedAt: Date.now(), lastUsedAt: Date.now() } })`,
    );
  return {
    lock,
    unlock,
    async turnOff() {
      await unlock();
      const page = await openOptions();
      await lockSection(page);
      // Unlocked, the one field named just "Passphrase" is the one that turns the lock off.
      await fill(page, 'Passphrase', PASSPHRASE);
      await click(page, 'Turn off lock');
      await until(page, button('Turn on lock'), 'Turn on lock');
      await closeOptions(page);
    },
  };
}
