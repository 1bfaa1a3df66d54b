/**
 * From one setup to several accounts (lib/accounts/store.ts): what a browser stored before
 * (tests/fixtures/storage/accounts/from-single-setup.json) becomes the first account, active,
 * with nothing lost or moved, and with the same stable id on every later read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { countWaitingChanges, listAccounts } from '@/lib/accounts';

const fixture = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '..', '..', 'fixtures', 'storage', 'accounts', 'from-single-setup.json'),
    'utf8',
  ),
) as { stored: Record<string, unknown>; expectedAccount: Record<string, unknown> };

const bare = (key: string) => key.replace(/^local:/, '');

beforeEach(async () => {
  fakeBrowser.reset();
  await fakeBrowser.storage.local.set(
    Object.fromEntries(Object.entries(fixture.stored).map(([key, value]) => [bare(key), value])),
  );
});

it('the single setup becomes the first account, active, named after its host', async () => {
  const view = await listAccounts();
  expect(view.accounts).toHaveLength(1);
  expect(view.accounts[0]).toEqual({ id: view.activeId, ...fixture.expectedAccount });
  // Its queued change is its own: counted for the removal's confirmation.
  expect(await countWaitingChanges(view.activeId)).toBe(1);
});

it('nothing that was stored is lost or moved, and no key is copied anywhere', async () => {
  await listAccounts();
  const local = await fakeBrowser.storage.local.get(null);
  for (const [key, value] of Object.entries(fixture.stored)) expect(local[bare(key)]).toEqual(value);
  const holdingKey = Object.entries(local).filter(([, value]) =>
    JSON.stringify(value).includes('fixture-key-1'),
  );
  expect(holdingKey.map(([name]) => name)).toEqual(['apiKey']);
});

it('the account keeps its id on every later read', async () => {
  const first = await listAccounts();
  const again = await listAccounts();
  expect(again.activeId).toBe(first.activeId);
  expect(again.accounts[0]?.id).toBe(first.activeId);
});
