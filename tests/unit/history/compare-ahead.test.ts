/**
 * "Compare with now" needs the account as it is now, its whole lists through the service: the
 * History section reads it when it opens, so the comparison does not wait for it, and reads it
 * again when it is more than a minute old or a snapshot was taken since (docs/history.md, "Diff").
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { historyServicesFor } from '@/lib/history/page';
import { createFakeClient } from '../../fakes/fake-client';
import { testAccount } from '../account-ids';

const ACCOUNT = testAccount('A').id;

beforeEach(() => fakeBrowser.reset());

function setUp() {
  let clock = Date.UTC(2026, 10, 28, 9, 0, 0);
  const client = createFakeClient('A');
  client.state.lists.whitelist.default = new Set(['kept.example']);
  const services = historyServicesFor(ACCOUNT, client, () => clock);
  return {
    client,
    services,
    later: (ms: number) => {
      clock += ms;
    },
  };
}

describe('the account now, read ahead of a comparison', () => {
  it('a comparison right after the section opened reads the account no more, and shows what changed', async () => {
    const { client, services, later } = setUp();
    await services.take();
    const [snapshot] = (await services.read()).snapshots;
    client.state.lists.whitelist.default = new Set(['kept.example', 'new.example']);
    const start = client.calls.length;
    services.warm();
    const diff = await services.diff(snapshot!.id);
    const openedThenCompared = client.calls.length - start;
    expect(diff?.lines).toMatchObject([{ kind: 'whitelist', entry: 'new.example', change: 'added' }]);
    // One reading of the account, as a comparison alone makes (a minute later, read afresh).
    later(61_000);
    const again = client.calls.length;
    await services.diff(snapshot!.id);
    expect(openedThenCompared).toBe(client.calls.length - again);
    expect(openedThenCompared).toBeGreaterThan(0);
  });

  it('reads the account again when what it read is more than a minute old, or a snapshot was taken since', async () => {
    const { client, services, later } = setUp();
    await services.take();
    const [snapshot] = (await services.read()).snapshots;
    services.warm();
    later(61_000);
    client.state.lists.whitelist.default = new Set(['later.example']);
    const calls = client.calls.length;
    const diff = await services.diff(snapshot!.id);
    expect(client.calls.length).toBeGreaterThan(calls);
    expect(diff?.lines.map((line) => [line.entry, line.change])).toEqual(
      expect.arrayContaining([
        ['kept.example', 'removed'],
        ['later.example', 'added'],
      ]),
    );

    services.warm();
    await services.take();
    client.state.lists.whitelist.default = new Set(['after-take.example']);
    const again = await services.diff(snapshot!.id);
    expect(again?.lines.map((line) => line.entry)).toContain('after-take.example');
  });
});
