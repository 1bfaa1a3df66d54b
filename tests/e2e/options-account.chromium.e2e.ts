/**
 * Account management on the options page, section by section, against the emulator, in both
 * API forms (Chromium). Form B acts on the whole account, which the emulator keeps as its
 * `default` profile; Form A acts on the profile chosen at the top.
 */
import { allByRole, byRole, chooseOption, describe, expect, readVisibleText, test } from './harness/index.ts';
import {
  chooseProfile,
  FORMS,
  fieldValueIn,
  fillIn,
  listItems,
  openAccount,
  press,
  sectionText,
  toggle,
} from './options-helpers.ts';

/** The emulator profile a form's actions land in: the chosen one (A) or the account's (B). */
const targetProfile = (form: 'A' | 'B', chosen: string) => (form === 'A' ? chosen : 'default');

describe.each(FORMS)('Options account management, Form %s (Chromium)', (form) => {
  test('Profiles: add one, refuse a bad name, delete after confirmation', async ({ chromium, emulator }) => {
    const page = await openAccount(await chromium.openOptions(), {
      baseUrl: emulator.url,
      key: emulator.key,
      form,
    });

    await fillIn(page, 'Profiles', 'textbox', 'New profile name', 'ab');
    expect(await press(page, 'Add profile')).toContain('at least 4 characters');
    expect(await fieldValueIn(page, 'Profiles', 'New profile name')).toBe('ab');

    await fillIn(page, 'Profiles', 'textbox', 'New profile name', 'teens2');
    expect(await press(page, 'Add profile')).toBe('Added profile teens2.');
    expect(Object.keys(emulator.admin.state().profiles)).toContain('teens2');
    // The list is fetched again after the service's answer: the new profile shows a moment after.
    await expect.poll(() => listItems(page, 'Profiles')).toContainEqual(expect.stringContaining('teens2'));

    await byRole(page, 'button', 'Delete profile teens2').click();
    await byRole(page, 'dialog', 'Delete profile teens2?').wait();
    expect(await press(page, 'Delete')).toBe('Deleted profile teens2.');
    expect(Object.keys(emulator.admin.state().profiles)).not.toContain('teens2');
    // `default` always exists: the page offers no way to delete it.
    expect(await allByRole(page, 'button', 'Delete profile default')).toHaveLength(0);
  }, 90_000);

  test('Categories: every category of the form is shown and a toggle changes it', async ({
    chromium,
    emulator,
  }) => {
    const page = await openAccount(await chromium.openOptions(), {
      baseUrl: emulator.url,
      key: emulator.key,
      form,
    });
    if (form === 'A') await chooseProfile(page, 'office');
    const profile = targetProfile(form, 'office');

    await byRole(page, 'checkbox', 'Gambling', { within: { role: 'region', name: 'Categories' } }).wait();
    const text = await sectionText(page, 'Categories');
    expect(text).toContain('gambling and betting sites');
    if (form === 'A') expect(text).toContain('Academic fraud');
    else expect(text).not.toContain('Academic fraud');

    expect(emulator.admin.state().profiles[profile]?.blockedCategories).not.toContain('category_gambling');
    expect(await toggle(page, 'Categories', 'checkbox', 'Gambling')).toMatch(
      /^Gambling is now blocked for (profile office|the whole account)\./,
    );
    expect(emulator.admin.state().profiles[profile]?.blockedCategories).toContain('category_gambling');
    const checked = await byRole(page, 'checkbox', 'Gambling')
      .map((element) => (element as HTMLInputElement).checked)
      .wait();
    expect(checked).toBe(true);
  });

  test('Whitelist: paste a list, see per-domain results, remove one, and a both-lists warning', async ({
    chromium,
    emulator,
  }) => {
    const page = await openAccount(await chromium.openOptions(), {
      baseUrl: emulator.url,
      key: emulator.key,
      form,
    });
    if (form === 'A') await chooseProfile(page, 'kids1');
    const profile = targetProfile(form, 'kids1');
    const existing = form === 'A' ? 'khanacademy.org' : 'wikipedia.org';
    const onBlocklist = form === 'A' ? 'roblox.com' : 'blocked-demo.example';
    await byRole(page, 'button', `Remove ${existing} from the whitelist`).wait();

    await fillIn(
      page,
      'Whitelist',
      'textbox',
      'Domains to add to the whitelist',
      `news.example.org\nnot a domain\nhttps://WWW.Shop.example.com/cart\n${onBlocklist}`,
    );
    const outcome = await press(page, 'Add to whitelist');
    expect(outcome).toContain('Added 3 of 3 domains to the whitelist');
    expect(outcome).toContain('1 line is not a domain');
    expect(await fieldValueIn(page, 'Whitelist', 'Domains to add to the whitelist')).toBe('not a domain');
    expect(await listItems(page, 'Results of adding to the whitelist')).toEqual([
      expect.stringMatching(/^not a domain: not a domain: /),
      'news.example.org: added',
      'www.shop.example.com: added',
      `${onBlocklist}: added`,
    ]);
    expect(emulator.admin.state().profiles[profile]?.whitelist).toEqual(
      expect.arrayContaining(['news.example.org', 'www.shop.example.com', onBlocklist]),
    );
    // One call per domain.
    const adds = emulator.admin.calls().filter((call) => call.action === 'whitelist/add');
    expect(adds).toHaveLength(3);

    for (const section of ['Whitelist', 'Blocklist']) {
      const warning = await byRole(page, 'note', undefined, { within: { role: 'region', name: section } })
        .map(readVisibleText)
        .wait();
      expect(warning).toContain(`on both the whitelist and the blocklist: ${onBlocklist}`);
    }

    expect(await press(page, `Remove ${existing} from the whitelist`)).toContain(
      `Removed ${existing} from the whitelist`,
    );
    expect(emulator.admin.state().profiles[profile]?.whitelist).not.toContain(existing);
  });

  test('Blocklist: filter the list and add one domain; a refusal keeps the text', async ({
    chromium,
    emulator,
  }) => {
    const page = await openAccount(await chromium.openOptions(), {
      baseUrl: emulator.url,
      key: emulator.key,
      form,
    });
    const profile = targetProfile(form, 'default');
    await byRole(page, 'button', 'Remove tracker.example.net from the blocklist').wait();

    await fillIn(page, 'Blocklist', 'textbox', 'Filter the blocklist', 'TRACKER');
    await expect
      .poll(() => listItems(page, 'Blocklist entries'))
      .toEqual([expect.stringContaining('tracker.example.net')]);

    emulator.admin.injectFault({ kind: 'odd-reason', reason: 'Domain is on a protected list', count: 1 });
    await fillIn(page, 'Blocklist', 'textbox', 'Domains to add to the blocklist', 'ads.example.com');
    const refused = await press(page, 'Add to blocklist');
    expect(refused).toContain('Added 0 of 1 domain');
    expect(await listItems(page, 'Results of adding to the blocklist')).toEqual([
      expect.stringContaining('Domain is on a protected list'),
    ]);
    expect(await fieldValueIn(page, 'Blocklist', 'Domains to add to the blocklist')).toBe('ads.example.com');

    expect(await press(page, 'Add to blocklist')).toContain('Added 1 of 1 domain to the blocklist');
    expect(emulator.admin.state().profiles[profile]?.blocklist).toContain('ads.example.com');
  });

  test('Top-level domains: block one in Form A; Form B says where to do it', async ({
    chromium,
    emulator,
  }) => {
    const page = await openAccount(await chromium.openOptions(), {
      baseUrl: emulator.url,
      key: emulator.key,
      form,
    });
    if (form === 'B') {
      // The /api/v1/ form has no TLD action: the section says so instead of offering a failing form.
      expect(await sectionText(page, 'Top-level domains')).toContain("Block it in your provider's dashboard");
      expect(await allByRole(page, 'textbox', 'Top-level domain')).toHaveLength(0);
      return;
    }
    await chooseProfile(page, 'guests');
    await fillIn(page, 'Top-level domains', 'textbox', 'Top-level domain', '.top');
    const tldCalls = () => emulator.admin.calls().filter((call) => /tld/i.test(call.action));
    await byRole(page, 'button', 'Block top-level domain').click();
    // Only the provider's dashboard can undo a TLD block: nothing is sent before the dialog's "Block".
    const dialogText = await byRole(page, 'dialog', 'Block every domain under .top?')
      .map((element) => element.textContent ?? '')
      .wait();
    expect(dialogText).toContain("only your provider's dashboard can unblock a top-level domain");
    expect(tldCalls()).toEqual([]);
    expect(await press(page, 'Block')).toContain('Blocked every domain under .top for profile guests');
    expect(emulator.admin.state().profiles.guests?.tlds).toContain('.top');
    expect(await listItems(page, 'Top-level domains blocked from this browser')).toEqual(['.top']);
    expect(await sectionText(page, 'Top-level domains')).toContain("use your provider's dashboard");
    // Another profile has its own list.
    await chooseProfile(page, 'office');
    await byRole(page, 'region', 'Top-level domains', { text: { contains: 'None yet' } }).wait();

    // .com takes a typed confirmation: "Block" stays disabled until the TLD is typed.
    const callsBefore = tldCalls().length;
    await fillIn(page, 'Top-level domains', 'textbox', 'Top-level domain', 'com');
    await byRole(page, 'button', 'Block top-level domain').click();
    await byRole(page, 'dialog', 'Block every domain under .com?').wait();
    const blockDisabled = () =>
      byRole(page, 'button', 'Block')
        .map((element) => (element as HTMLButtonElement).disabled)
        .wait();
    expect(await blockDisabled()).toBe(true);
    await byRole(page, 'textbox', 'Type .com to confirm').fill('.co');
    expect(await blockDisabled()).toBe(true);
    expect(tldCalls()).toHaveLength(callsBefore);
    await byRole(page, 'textbox', 'Type .com to confirm').fill('.com');
    expect(await blockDisabled()).toBe(false);
    expect(await press(page, 'Block')).toContain('Blocked every domain under .com for profile office');
    expect(tldCalls()).toHaveLength(callsBefore + 1);
    expect(emulator.admin.state().profiles.office?.tlds).toContain('.com');
  });

  test('Default block: unknown until switched here, then shown', async ({ chromium, emulator }) => {
    const page = await openAccount(await chromium.openOptions(), {
      baseUrl: emulator.url,
      key: emulator.key,
      form,
    });
    if (form === 'A') await chooseProfile(page, 'kids1');
    const profile = targetProfile(form, 'kids1');

    expect(await sectionText(page, 'Default block')).toContain('not known: set from another place');
    // A tri-state checkbox: not known is "mixed", not off.
    expect(
      await byRole(page, 'checkbox', 'Block everything not on the whitelist', {
        within: { role: 'region', name: 'Default block' },
      })
        .map((element) => (element as HTMLInputElement).indeterminate)
        .wait(),
    ).toBe(true);
    expect(await toggle(page, 'Default block', 'checkbox', 'Block everything not on the whitelist')).toMatch(
      /^Default block is on for/,
    );
    expect(emulator.admin.state().profiles[profile]?.defaultBlock).toBe(true);
    expect(await sectionText(page, 'Default block')).toContain('Current state: on, set from this browser');

    expect(await toggle(page, 'Default block', 'checkbox', 'Block everything not on the whitelist')).toMatch(
      /^Default block is off for/,
    );
    expect(emulator.admin.state().profiles[profile]?.defaultBlock).toBe(false);
  });

  test("Networks: this browser's network is marked; add and remove", async ({ chromium, emulator }) => {
    emulator.admin.setPublicIp('203.0.113.50');
    const page = await chromium.openOptions();
    // The lookup URL would normally be set in the Dynamic IP section; here it is stored directly
    // so this test does not depend on that section's form.
    await page.evaluate(async (url) => {
      type StorageArea = { set(items: Record<string, unknown>): Promise<void> };
      const api = (globalThis as unknown as { chrome: { storage: { local: StorageArea } } }).chrome;
      await api.storage.local.set({
        dynamicIp: {
          enabled: false,
          intervalMinutes: 15,
          label: 'Dynamic IP (this browser)',
          profile: 'default',
          lookupUrls: [`${url}/ip`],
          removePrevious: true,
        },
      });
    }, emulator.url);
    await openAccount(page, { baseUrl: emulator.url, key: emulator.key, form }, 'Networks');

    // Dynamic IP is off: the lookup service is asked only when the user says so.
    await byRole(page, 'button', "Find this browser's address").click();
    await byRole(page, 'row', { startsWith: '203.0.113.50 this browser' }).wait();
    expect(await sectionText(page, 'Networks')).toContain("This browser's public address is 203.0.113.50.");

    await fillIn(page, 'Networks', 'textbox', 'IPv4 address', '192.0.2.99');
    await fillIn(page, 'Networks', 'textbox', 'Label for the new network', 'Test lab');
    if (form === 'A') await chooseOption(page, 'Profile for the new network', 'kids1');
    expect(await press(page, 'Add network')).toMatch(/^Added network 192\.0\.2\.99 \(Test lab\)/);
    expect(emulator.admin.state().networks).toContainEqual(
      expect.objectContaining({
        ip: '192.0.2.99',
        label: 'Test lab',
        profile: form === 'A' ? 'kids1' : 'default',
      }),
    );
    await byRole(page, 'row', { startsWith: '192.0.2.99' }).wait();

    await byRole(page, 'button', { startsWith: 'Remove network 198.51.100.23' }).click();
    await byRole(page, 'dialog', 'Remove network 198.51.100.23?').wait();
    expect(await press(page, 'Remove')).toBe('Removed network 198.51.100.23.');
    expect(emulator.admin.state().networks.map((network) => network.ip)).not.toContain('198.51.100.23');
  });
});

test('Overview: the small chart of today follows the window’s width (Chromium)', async ({
  chromium,
  emulator,
}) => {
  const page = await openAccount(
    await chromium.openOptions(),
    { baseUrl: emulator.url, key: emulator.key, form: 'B' },
    'Overview',
  );
  const chart = byRole(
    page,
    'img',
    { startsWith: 'Queries per hour on' },
    { within: { role: 'region', name: 'Overview' } },
  );
  await chart.wait();
  /** The drawing's width in pixels, once it fills its box (redrawn, not only the box stretched). */
  const drawnWidthAt = async (windowWidth: number) => {
    await page.setViewport({ width: windowWidth, height: 900 });
    const sizes = () =>
      chart
        .map((canvas) => ({
          drawn: (canvas as HTMLCanvasElement).width,
          box: Math.floor((canvas.parentElement as HTMLElement).getBoundingClientRect().width),
        }))
        .wait();
    await expect
      .poll(async () => {
        const { drawn, box } = await sizes();
        return Math.abs(drawn - box) <= 1;
      })
      .toBe(true);
    return (await sizes()).drawn;
  };
  const wide = await drawnWidthAt(1400);
  // At 1000 px the cards' columns are wider than at 1400 px (fewer of them).
  expect(await drawnWidthAt(1000)).toBeGreaterThan(wide);
  expect(await drawnWidthAt(1400)).toBe(wide);
});
