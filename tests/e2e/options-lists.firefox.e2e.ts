/** Setup and a list action on the options page in Firefox (the Setup tests live in setup.firefox.e2e.ts). */
import { allByRole, byRole, chooseOption, expect, test } from './harness/index.ts';
import { fieldValueIn, fillIn, listItems, openAccount, press } from './options-helpers.ts';

test('after setup, a pasted list is added to the whitelist and an entry removed (Firefox, Form B)', async ({
  firefox,
  emulator,
}) => {
  const page = await openAccount(firefox.optionsPage, {
    baseUrl: emulator.url,
    key: emulator.key,
    form: 'B',
  });
  await byRole(page, 'button', 'Remove wikipedia.org from the whitelist').wait();

  await fillIn(
    page,
    'Whitelist',
    'textbox',
    'Domains to add to the whitelist',
    'docs.example.org\n*.bad\nmdn.example.net',
  );
  const outcome = await press(page, 'Add to whitelist');
  expect(outcome).toContain('Added 2 of 2 domains to the whitelist of the whole account');
  expect(await fieldValueIn(page, 'Whitelist', 'Domains to add to the whitelist')).toBe('*.bad');
  expect(await listItems(page, 'Results of adding to the whitelist')).toEqual([
    expect.stringMatching(/^\*\.bad: not a domain: /),
    'docs.example.org: added',
    'mdn.example.net: added',
  ]);
  expect(emulator.admin.state().profiles.default?.whitelist).toEqual(
    expect.arrayContaining(['docs.example.org', 'mdn.example.net']),
  );

  expect(await press(page, 'Remove wikipedia.org from the whitelist')).toContain('Removed wikipedia.org');
  expect(emulator.admin.state().profiles.default?.whitelist).not.toContain('wikipedia.org');
  expect(await allByRole(page, 'button', 'Remove wikipedia.org from the whitelist')).toHaveLength(0);
});

test('Form A: the profile picker chooses whose blocklist is changed (Firefox)', async ({
  firefox,
  emulator,
}) => {
  const page = await openAccount(firefox.optionsPage, {
    baseUrl: emulator.url,
    key: emulator.key,
    form: 'A',
  });
  await chooseOption(page, 'Profile', 'kids1');
  await byRole(page, 'button', 'Remove roblox.com from the blocklist').wait();

  await fillIn(page, 'Blocklist', 'textbox', 'Domains to add to the blocklist', 'games.example.com');
  expect(await press(page, 'Add to blocklist')).toContain(
    'Added 1 of 1 domain to the blocklist of profile kids1',
  );
  expect(emulator.admin.state().profiles.kids1?.blocklist).toContain('games.example.com');
  expect(emulator.admin.state().profiles.default?.blocklist).not.toContain('games.example.com');
});
