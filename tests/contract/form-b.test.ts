// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CATEGORY_CATALOGUE } from '@/lib/api';
import type { DnsFilterApi } from '@/lib/api/types';
import { apiErrorOf, dumpLines, TODAY, useEmulator, YESTERDAY } from './helpers';

const ctx = useEmulator();
const api = (): DnsFilterApi => ctx.client('B');
const state = () => ctx.emulator.admin.state();
const lastCall = () => ctx.emulator.admin.calls().at(-1);
/** Parameters the service received, apart from `action` (the emulator never records the key). */
const lastParams = () => {
  const { action: _, ...params } = lastCall()?.params ?? {};
  return params;
};

describe('Form B against the emulator: every action succeeds', () => {
  it('profiles/list, profile/add, profile/delete', async () => {
    expect(await api().listProfiles()).toEqual(['default', 'kids1', 'office', 'guests']);
    await api().addProfile('Teens2024');
    expect(lastCall()?.form).toBe('B');
    expect(lastParams()).toEqual({ name: 'Teens2024' });
    expect(await api().listProfiles()).toContain('Teens2024');
    await api().deleteProfile('Teens2024');
    expect(await api().listProfiles()).not.toContain('Teens2024');
  });

  it('categories/list: the ten categories of the form with their state', async () => {
    const categories = await api().listCategories();
    expect(categories.map((c) => c.id)).toEqual(CATEGORY_CATALOGUE.B.map((c) => c.id));
    expect(categories.filter((c) => c.blocked).map((c) => c.id)).toEqual(['adult', 'malware']);
  });

  it('category/block and category/allow act on the whole account, whatever profile is passed', async () => {
    await api().setCategoryBlocked('gaming', true, 'kids1');
    expect(lastParams()).toEqual({ category: 'gaming' });
    expect((await api().listCategories()).find((c) => c.id === 'gaming')?.blocked).toBe(true);
    await api().setCategoryBlocked('gaming', false);
    expect((await api().listCategories()).find((c) => c.id === 'gaming')?.blocked).toBe(false);
  });

  it('whitelist/list and blocklist/list are the account’s', async () => {
    expect(await api().listDomains('whitelist', 'kids1')).toEqual(['allowed-demo.example', 'wikipedia.org']);
    expect(await api().listDomainsByProfile('blocklist')).toEqual({
      account: ['blocked-demo.example', 'tracker.example.net'],
    });
  });

  it.each(['whitelist', 'blocklist'] as const)('%s add and delete', async (list) => {
    await api().addDomain(list, 'HTTPS://Shop.Example.com/cart', 'ignored');
    expect(lastParams()).toEqual({ domain: 'shop.example.com' });
    expect(await api().listDomains(list)).toContain('shop.example.com');
    await api().deleteDomain(list, 'shop.example.com');
    expect(await api().listDomains(list)).not.toContain('shop.example.com');
  });

  it('default-block/enable and default-block/disable take no parameter', async () => {
    await api().setDefaultBlock(true, 'kids1');
    expect(lastParams()).toEqual({});
    expect(state().profiles.default!.defaultBlock).toBe(true);
    await api().setDefaultBlock(false);
    expect(state().profiles.default!.defaultBlock).toBe(false);
  });

  it('network/list, network/add, network/delete with labels', async () => {
    expect(await api().listNetworks()).toContainEqual({
      ip: '203.0.113.50',
      label: 'Home Network',
      profile: 'default',
    });
    await api().addNetwork({ ip: '198.51.100.99', label: 'Cabin ☃', profile: 'ignored' });
    expect(lastParams()).toEqual({ ip: '198.51.100.99', label: 'Cabin ☃' });
    expect(await api().listNetworks()).toContainEqual({
      ip: '198.51.100.99',
      label: 'Cabin ☃',
      profile: 'default',
    });
    await api().addNetwork({ ip: '198.51.100.99' });
    await api().deleteNetwork({ ip: '198.51.100.99' });
    expect((await api().listNetworks()).map((n) => n.ip)).not.toContain('198.51.100.99');
  });

  it('logs/list, logs/getstats, logs/getdump, logs/delete', async () => {
    const days = await api().listLogDays();
    expect(days[0]).toBe(TODAY);
    const stats = await api().getStats(YESTERDAY);
    const total = Object.values(stats.action).reduce(
      (sum, hour) => sum + (hour.Allowed ?? 0) + (hour.Blocked ?? 0),
      0,
    );
    expect(await dumpLines(await api().getDump(YESTERDAY))).toHaveLength(total);
    await api().deleteLogDay(YESTERDAY);
    const error = await apiErrorOf(api().getDump(YESTERDAY));
    expect(error.kind).toBe('service');
    expect(error.details.reason).toBe(`The raw log of ${YESTERDAY} has been deleted`);
    expect(await api().listLogDays()).toContain(YESTERDAY);
  });

  it('has no TLD blocking: refused without a call', async () => {
    const error = await apiErrorOf(api().blockTld('.xyz'));
    expect(error.kind).toBe('invalid-input');
    expect(ctx.emulator.admin.calls()).toEqual([]);
  });
});

describe('Form B: parameters the service refuses come back as service errors, verbatim', () => {
  it.each<[string, (api: DnsFilterApi) => Promise<unknown>, string]>([
    [
      'profile that exists',
      (a) => a.addProfile('office'),
      'Could not create the profile office: Profile already exists: office',
    ],
    [
      'the default profile',
      (a) => a.deleteProfile('default'),
      'Could not delete the profile default: The default profile cannot be deleted',
    ],
    [
      'unknown profile',
      (a) => a.deleteProfile('nobody99'),
      'Could not delete the profile nobody99: Profile not found: nobody99',
    ],
    [
      'a Form A category id',
      (a) => a.setCategoryBlocked('category_adult', true),
      'Could not block the category Adult: Invalid category',
    ],
    [
      'domain the service finds invalid',
      (a) => a.addDomain('blocklist', 'under_score.example.com'),
      'Could not add under_score.example.com to the blocklist: Invalid domain name',
    ],
    [
      'stats of a day without logs',
      (a) => a.getStats('2001-01-01'),
      'Could not load the statistics of 2001-01-01: No logs for 2001-01-01',
    ],
    [
      'dump of a day without logs',
      (a) => a.getDump('2001-01-01'),
      'Could not download the raw log of 2001-01-01: No logs for 2001-01-01',
    ],
    [
      'deleting a day without logs',
      (a) => a.deleteLogDay('2001-01-01'),
      'Could not delete the raw log of 2001-01-01: No logs for 2001-01-01',
    ],
  ])('%s', async (_, run, message) => {
    const error = await apiErrorOf(run(api()));
    expect(error.kind).toBe('service');
    expect(error.message.startsWith(message)).toBe(true);
  });
});

describe('Form B: parameters the client refuses never reach the service', () => {
  it.each<[string, (api: DnsFilterApi) => Promise<unknown>, string]>([
    ['profile name too long', (a) => a.addProfile('p'.repeat(65)), 'name'],
    ['empty category', (a) => a.setCategoryBlocked('  ', true), 'category'],
    ['domain with a space', (a) => a.addDomain('whitelist', 'exa mple.com'), 'domain'],
    ['single-label domain', (a) => a.deleteDomain('whitelist', 'localhost'), 'domain'],
    ['address with a leading zero', (a) => a.addNetwork({ ip: '203.0.113.050' }), 'ip'],
    ['label of 65 characters', (a) => a.addNetwork({ ip: '203.0.113.60', label: 'l'.repeat(65) }), 'label'],
    ['address to delete', (a) => a.deleteNetwork({ ip: 'home' }), 'ip'],
    ['date for stats', (a) => a.getStats('2026-13-01'), 'date'],
    ['date for a dump', (a) => a.getDump(''), 'date'],
    ['date to delete', (a) => a.deleteLogDay('today'), 'date'],
  ])('%s', async (_, run, field) => {
    const error = await apiErrorOf(run(api()));
    expect(error.kind).toBe('invalid-input');
    expect(error.details.field).toBe(field);
    expect(ctx.emulator.admin.calls()).toEqual([]);
  });
});
