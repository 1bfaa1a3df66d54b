import { configureExtension, expect, test, testConnection } from './harness/index.ts';

test('the options page opened on first install connects to the service (Firefox)', async ({
  firefox,
  emulator,
}) => {
  const options = firefox.optionsPage;

  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'A' });
  const outcome = await testConnection(options);

  expect(outcome).toMatch(/^Connected/i);
  expect(emulator.admin.calls().some((call) => call.form === 'A')).toBe(true);
});

test('a wrong key shows the service refusal, not Connected (Firefox)', async ({ firefox, emulator }) => {
  const options = firefox.optionsPage;

  await configureExtension(options, { baseUrl: emulator.url, key: 'not-the-account-key', form: 'B' });
  const outcome = await testConnection(options);

  expect(outcome).not.toMatch(/^Connected/i);
  expect(outcome).toContain('Invalid API key');
});
