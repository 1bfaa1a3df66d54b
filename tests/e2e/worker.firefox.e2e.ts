/**
 * The background script in Firefox (an event page there, not a service worker): Register now
 * from the options page goes through it, with the same code path as in Chromium.
 */
import {
  byRole,
  configureExtension,
  expect,
  openSection,
  pressAndWaitForOutcome,
  test,
} from './harness/index.ts';

test('Register now registers the public IPv4, then an address change replaces it (Firefox)', async ({
  firefox,
  emulator,
}) => {
  const options = firefox.optionsPage;
  await configureExtension(options, { baseUrl: emulator.url, key: emulator.key, form: 'B' });
  emulator.admin.setPublicIp('198.51.100.101');
  await openSection(options, 'Dynamic IP');
  await byRole(options, 'textbox', 'IP lookup URL').fill(`${emulator.url}/ip.json`);
  await byRole(options, 'textbox', 'More IP lookup URLs, tried in order (one per line)').fill(
    `${emulator.url}/ip`,
  );
  await byRole(options, 'textbox', 'Network label').fill('Firefox laptop');

  expect(await pressAndWaitForOutcome(options, 'Register now')).toMatch(/^Registered 198\.51\.100\.101\b/);
  emulator.admin.setPublicIp('198.51.100.102');
  expect(await pressAndWaitForOutcome(options, 'Register now')).toMatch(
    /^Registered 198\.51\.100\.102\b.*removed the previous address 198\.51\.100\.101/,
  );

  const ips = emulator.admin.state().networks.map((network) => network.ip);
  expect(ips).toContain('198.51.100.102');
  expect(ips).not.toContain('198.51.100.101');
  expect(emulator.admin.state().networks.find((network) => network.ip === '198.51.100.102')?.label).toBe(
    'Firefox laptop',
  );
});
