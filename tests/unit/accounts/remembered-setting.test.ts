/**
 * A schedule's default block delivered through the outbox is remembered in the account it was
 * sent to, active or not (lib/accounts/remembered.ts): the service cannot be asked for it, and the
 * popup's verdict and the history read it from there.
 */
import { beforeEach, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createAccounts } from '@/lib/accounts';
import { rememberDeliveredSetting } from '@/lib/accounts/remembered';
import { accountValue, activateAccount, readAccounts } from '@/lib/accounts/store';
import { type ConfiguredAccount, readConfiguredAccounts } from '@/lib/identity/current';
import { deliverPending, enqueueChange, type OutboxDeps } from '@/lib/outbox';
import { apiKeyItem, connectionItem, defaultBlockItem } from '@/lib/settings/storage';
import { createFakeClient } from '../../fakes/fake-client';

beforeEach(() => fakeBrowser.reset());

it('remembers the default block a delivered change set, in its own account, active or not', async () => {
  await apiKeyItem.setValue('key-of-home');
  await connectionItem.setValue({ baseUrl: 'https://home.example', form: 'A' });
  const officeId = await createAccounts({
    confirm: async () => true,
    permissions: { request: async () => true, remove: async () => true },
    removeInWorker: async () => ({ removed: true, discarded: 0 }),
  }).add({ name: 'Office', key: 'key-of-office', baseUrl: 'https://office.example', form: 'B' });
  const services = { A: createFakeClient('A', { profiles: ['default', 'kids'] }), B: createFakeClient('B') };
  // Each account with a fake service of its form.
  const accounts: ConfiguredAccount[] = (await readConfiguredAccounts()).map((account) => ({
    ...account,
    client: services[account.identity.form],
  }));
  const home = accounts.find((account) => account.accountId !== officeId)!;
  const office = accounts.find((account) => account.accountId === officeId)!;
  const clock = 5_000;
  const deps: OutboxDeps = {
    getAccount: async () => home,
    getAccounts: async () => accounts,
    alarms: fakeBrowser.alarms,
    now: () => clock,
    onSettled: (settled) => rememberDeliveredSetting(settled, accounts),
  };
  await enqueueChange(
    { op: 'set-default-block', enabled: true, profile: 'kids', source: 'schedule' },
    home.identity.id,
  );
  await enqueueChange({ op: 'set-default-block', enabled: true, source: 'schedule' }, office.identity.id);
  // A category is not remembered here: the service lists categories.
  await enqueueChange(
    { op: 'set-category', category: 'category_gaming', blocked: true, source: 'schedule' },
    home.identity.id,
  );
  await deliverPending(deps, { force: true });
  expect(services.A.state.defaultBlock.kids).toBe(true);
  expect(await defaultBlockItem.getValue()).toEqual({ 'A:kids': { enabled: true, at: 5_000 } });
  const parked = (await readAccounts()).accounts.find((account) => account.id === officeId)!;
  expect(accountValue(parked, defaultBlockItem)).toEqual({ 'B:account': { enabled: true, at: 5_000 } });
  await activateAccount(officeId);
  expect(await defaultBlockItem.getValue()).toEqual({ 'B:account': { enabled: true, at: 5_000 } });
});
