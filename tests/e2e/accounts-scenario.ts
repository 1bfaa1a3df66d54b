/**
 * Two accounts in one browser, the same scenario in Chromium and Firefox
 * (accounts.chromium.e2e.ts, accounts.firefox.e2e.ts): two emulators on two ports are two
 * accounts. Both are added on the options page (Accounts), the popup switches between them
 * (combobox "Account"), and each emulator must get only its own account's changes, also when
 * one was down while its change was queued and the other was used meanwhile.
 *
 * The browsers differ only in how the popup is opened and read: `AccountsBrowser` says how.
 */
import type { ElementHandle, Page } from 'puppeteer-core';
import { type EmulatorHandle, startEmulator } from '../../emulator/index.ts';
import { allByRole, byRole, expect, showSection, type TextMatch, textOf } from './harness/index.ts';

/** The popup as a person uses it, in either browser. */
export interface PopupDriver {
  /** Waits for the verdict (status "Verdict") starting with `start`; returns its text. */
  verdict(start: string): Promise<string>;
  /** Presses a one-click button; returns the outcome once the worker has answered. */
  press(button: string): Promise<string>;
  /**
   * Chooses the account in the combobox "Account", as a person's choice does, and waits until the
   * popup has opened again for it (it shows only the active account's data).
   */
  chooseAccount(name: string): Promise<void>;
  /** The account the combobox "Account" shows as chosen (waits for the combobox). */
  chosenAccount(): Promise<string>;
  close(): Promise<void>;
}

export interface AccountsBrowser {
  /** The options page (an extension page with the extension's APIs). */
  options: Page;
  /** Opens a site tab on `host` and the real toolbar popup on it. */
  popupOn(host: string): Promise<PopupDriver>;
}

export interface AccountToAdd {
  name: string;
  baseUrl: string;
  key: string;
  form: 'A' | 'B';
}

const ACCOUNTS = { role: 'region', name: 'Accounts' } as const;
const FORM_OPTION = { A: 'Form A (/api): profiles', B: 'Form B (/api/v1/): whole account' } as const;

/** A native select inside the Accounts section, chosen as a person's choice does. */
async function chooseInAccounts(options: Page, combobox: TextMatch, optionText: string): Promise<void> {
  const select = (await byRole(options, 'combobox', combobox, {
    within: ACCOUNTS,
  }).waitHandle()) as ElementHandle<HTMLSelectElement>;
  const value = await select.evaluate(
    (element, wanted) => [...element.options].find((o) => o.textContent?.trim() === wanted)?.value,
    optionText,
  );
  if (value === undefined) throw new Error(`No option "${optionText}" in ${String(combobox)}`);
  await select.select(value);
  await select.dispose();
}

/**
 * Adds an account in the options page's Accounts section, testing its connection first (which
 * asks before the key goes to an origin not saved yet). Returns the outcome of saving it.
 */
export async function addAccount(options: Page, account: AccountToAdd): Promise<string> {
  await showSection(options, 'Accounts');
  await byRole(options, 'button', 'Add account', { within: ACCOUNTS }).click();
  await byRole(options, 'textbox', 'Account name', { within: ACCOUNTS }).fill(account.name);
  await byRole(options, 'textbox', 'API key', { within: ACCOUNTS }).fill(account.key);
  await byRole(options, 'textbox', 'Base URL', { within: ACCOUNTS }).fill(account.baseUrl);
  await chooseInAccounts(options, 'API form', FORM_OPTION[account.form]);

  // The key goes nowhere before the user says so: Test connection asks first, naming the host.
  await byRole(options, 'button', 'Test connection', { within: ACCOUNTS }).click();
  const host = new URL(account.baseUrl).host;
  const question = byRole(options, 'dialog', `Send your API key to ${host}?`);
  await question.wait();
  await byRole(options, 'button', 'Send the key', { within: { role: 'dialog' } }).click();
  expect(
    await textOf(options, 'status', undefined, { within: ACCOUNTS, text: { startsWith: 'Connected' } }),
  ).toMatch(/^Connected: \d+ profiles?/);

  await byRole(options, 'button', 'Save account', { within: ACCOUNTS }).click();
  // The section's own status region: the outcome, not the progress, not the test's "Connected".
  return textOf(options, 'status', undefined, { within: ACCOUNTS, text: /^(?!Connected)(?!.*…$).+/ });
}

/** The text of the option a combobox (a native select) shows as chosen. */
export async function chosenOption(page: Page, combobox: TextMatch): Promise<string> {
  return byRole(page, 'combobox', combobox)
    .map((element) => {
      const select = element as HTMLSelectElement;
      return select.options[select.selectedIndex]?.textContent?.trim() ?? '';
    })
    .wait();
}

const whitelistOf = (service: EmulatorHandle) => service.admin.state().profiles.default?.whitelist ?? [];
/** Every domain any call to the service named. */
const domainsSentTo = (service: EmulatorHandle) =>
  service.admin.calls().flatMap((call) => [call.params.domain_name, call.params.domain].filter(Boolean));

export interface ScenarioOptions {
  /** How long delivery after the service is back may take (the outbox's first retry is 30 s away). */
  deliveryTimeoutMs: number;
}

/**
 * The scenario itself. `open` gets the browser ready (a fresh profile, options page found) and
 * returns how to drive it.
 */
export async function twoAccountsScenario(
  browser: AccountsBrowser,
  settings: ScenarioOptions,
): Promise<void> {
  const family = await startEmulator({ port: 0, key: 'family-account-key' });
  const office = await startEmulator({ port: 0, key: 'office-account-key' });
  let familyBack: EmulatorHandle | undefined;
  try {
    const { options } = browser;
    expect(
      await addAccount(options, { name: 'Family', baseUrl: family.url, key: family.key, form: 'A' }),
    ).toMatch(/^Added Family/);
    // One account: nothing to choose between, so no switcher anywhere.
    expect(
      await addAccount(options, { name: 'Office', baseUrl: office.url, key: office.key, form: 'A' }),
    ).toMatch(/^Added Office/);
    // The first account added is the active one until the user chooses another.
    const list = await textOf(options, 'list', 'Your accounts');
    expect(list).toMatch(/Family.*active/i);
    expect(await chosenOption(options, 'Account')).toBe('Family');

    // Family: whitelist one.example from the popup; only Family's service hears of it.
    const first = await browser.popupOn('one.example');
    expect(await first.chosenAccount()).toBe('Family');
    await first.verdict('Not blocked');
    expect(await first.press('Whitelist')).toMatch(/^one\.example was added to the whitelist/);
    expect(whitelistOf(family)).toContain('one.example');
    await first.close();

    // Office, chosen in the popup: the next opening stays with it.
    const second = await browser.popupOn('two.example');
    await second.chooseAccount('Office');
    await second.verdict('Not blocked');
    expect(await second.press('Whitelist')).toMatch(/^two\.example was added to the whitelist/);
    await second.close();
    const reopened = await browser.popupOn('two.example');
    expect(await reopened.chosenAccount()).toBe('Office');
    expect(await reopened.verdict('Allowed')).toMatch(/whitelist/i);
    await reopened.close();

    expect(whitelistOf(office)).toContain('two.example');
    expect(whitelistOf(office)).not.toContain('one.example');
    expect(whitelistOf(family)).not.toContain('two.example');
    expect(domainsSentTo(office)).not.toContain('one.example');
    expect(domainsSentTo(family)).not.toContain('two.example');

    // Back to Family; its service goes down while the popup is open, and the change made for
    // Family waits in this browser.
    const queued = await browser.popupOn('three.example');
    await queued.chooseAccount('Family');
    await queued.verdict('Not blocked');
    await family.close();
    expect(await queued.press('Whitelist')).toMatch(/three\.example/);
    await queued.close();
    expect(domainsSentTo(office)).not.toContain('three.example');

    // Meanwhile Office is used: its change goes to Office at once, Family's stays queued.
    const meanwhile = await browser.popupOn('four.example');
    await meanwhile.chooseAccount('Office');
    await meanwhile.verdict('Not blocked');
    expect(await meanwhile.press('Whitelist')).toMatch(/^four\.example was added to the whitelist/);
    await meanwhile.close();
    expect(whitelistOf(office)).toContain('four.example');
    expect(domainsSentTo(office)).not.toContain('three.example');

    // Family's service is back (same port and key, its state as new): the queued change reaches
    // it on the outbox's next attempt, with Office still the active account, and goes nowhere else.
    familyBack = await startEmulator({ port: family.port, key: family.key });
    const back = familyBack;
    await expect
      .poll(() => whitelistOf(back), { timeout: settings.deliveryTimeoutMs, interval: 500 })
      .toContain('three.example');
    expect(whitelistOf(back)).not.toContain('four.example');
    expect(domainsSentTo(back)).not.toContain('four.example');
    expect(domainsSentTo(office)).not.toContain('three.example');
    expect(whitelistOf(office)).not.toContain('three.example');
    // The options page follows the switch made in the popup.
    expect(await chosenOption(options, 'Account')).toBe('Office');

    // Removing Family is asked first, saying that nothing waits for it any more; with one
    // account left there is nothing to choose between, and the combobox goes.
    await options.bringToFront();
    await showSection(options, 'Accounts');
    await byRole(options, 'button', 'Remove Family', { within: ACCOUNTS }).click();
    expect(await textOf(options, 'dialog', 'Remove the account Family?')).toContain(
      'No change is waiting to be sent to it.',
    );
    await byRole(options, 'button', 'Remove', { within: { role: 'dialog' } }).click();
    expect(await textOf(options, 'status', undefined, { within: ACCOUNTS, text: 'Removed Family.' })).toBe(
      'Removed Family.',
    );
    await expect.poll(() => allByRole(options, 'combobox', 'Account').then((found) => found.length)).toBe(0);
    expect(await textOf(options, 'list', 'Your accounts')).not.toContain('Family');
  } finally {
    await familyBack?.close();
    await office.close();
    await family.close().catch(() => {});
  }
}
