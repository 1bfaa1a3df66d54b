import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { history } from '@/lib/history';
import { snapshotEveryAccount } from '@/lib/history/service';
import { addedTldsItem } from '@/lib/settings/storage';
import { createFakeClient, offline } from '../../fakes/fake-client';

beforeEach(() => fakeBrowser.reset());

describe('the daily snapshots', () => {
  it('snapshot every account with its own client; one that fails or has no key holds no other back', async () => {
    const home = createFakeClient('A', {
      lists: { whitelist: { default: new Set(['home.example']) }, blocklist: {} },
    });
    const office = createFakeClient('B', {
      lists: { whitelist: { account: new Set(['office.example']) }, blocklist: {} },
    });
    const down = createFakeClient('A');
    down.failWith(offline());
    await addedTldsItem.setValue({ 'A:default': ['.zip'] });
    await snapshotEveryAccount(
      [
        { identity: { id: 'down' }, client: down, accountId: 'down-0000', active: false },
        { identity: { id: 'home' }, client: home, accountId: 'home-0000', active: true },
        { identity: { id: 'nokey' }, client: null, accountId: 'nokey-0000', active: false },
        { identity: { id: 'office' }, client: office, accountId: 'office-0000', active: false },
      ],
      async (accountId) => {
        const tlds: Record<string, string[]> = accountId === 'office-0000' ? { 'B:account': ['.top'] } : {};
        return { tlds, defaultBlock: {} };
      },
    );
    const [homeSnapshot] = await history.read('home');
    expect(homeSnapshot?.snapshot.sections).toMatchObject({
      'whitelist\tdefault': ['home.example'],
      'tlds\tdefault': ['.zip'],
    });
    const [officeSnapshot] = await history.read('office');
    expect(officeSnapshot?.snapshot.sections).toMatchObject({
      'whitelist\taccount': ['office.example'],
      'tlds\taccount': ['.top'],
    });
    expect(officeSnapshot?.snapshot.reason).toBe('daily');
    expect(await history.list('down')).toEqual([]);
    expect(await history.list('nokey')).toEqual([]);
  });
});
