import {
  type ApiFormName,
  byRole,
  configureExtension,
  describe,
  expect,
  openSection,
  test,
  testConnection,
} from './harness/index.ts';

const FORMS: ApiFormName[] = ['A', 'B'];

describe.each(FORMS)('Setup on the options page, Form %s (Chromium)', (form) => {
  test('with the account key, Test connection reports Connected', async ({ chromium, emulator }) => {
    const options = await chromium.openOptions();

    await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form });
    const outcome = await testConnection(options);

    expect(outcome).toMatch(/^Connected/i);
    // The chosen form is the one that was spoken: the other form's URL must not be called.
    const formsCalled = new Set(emulator.admin.calls().map((call) => call.form));
    expect([...formsCalled]).toEqual([form]);
  });

  test('with a wrong key, Test connection shows the service refusal, not Connected', async ({
    chromium,
    emulator,
  }) => {
    const options = await chromium.openOptions();

    await configureExtension(options, { baseUrl: emulator.url, key: 'not-the-account-key', form });
    const outcome = await testConnection(options);

    expect(outcome).not.toMatch(/^Connected/i);
    expect(outcome).toContain('Invalid API key');
    expect(outcome).not.toContain('not-the-account-key');
  });
});

test('saved settings are there when the options page is opened again (Chromium)', async ({
  chromium,
  emulator,
}) => {
  const first = await chromium.openOptions();
  await configureExtension(first, { baseUrl: emulator.url, key: emulator.key, form: 'B' });
  await first.close();

  const reopened = await chromium.openOptions();
  // With a key saved, the page opens on the Overview: Setup is reached through the navigation.
  await openSection(reopened, 'Setup');
  const fieldValue = (name: string) =>
    byRole(reopened, 'textbox', name)
      .map((element) => (element as HTMLInputElement).value)
      .wait();

  await expect.poll(() => fieldValue('Base URL')).toBe(emulator.url);
  expect(await fieldValue('API key')).toBe(emulator.key);
  expect(await testConnection(reopened)).toMatch(/^Connected/i);
  expect(emulator.admin.calls().every((call) => call.form === 'B')).toBe(true);
});
