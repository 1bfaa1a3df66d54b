/**
 * Garbage in each stored key (a damaged value, or one written by a newer version before a
 * downgrade) must never break a page: each item reads it as its fallback or as a value of its
 * current structure, and says it could not read it; the popup still opens to a verdict or says
 * what to do, and names what it could not read.
 */
import { cleanup, screen, waitFor } from '@testing-library/preact';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { policyAccountsItem } from '@/lib/policy/stored';
import { profileGroupsItem } from '@/lib/profile-groups/groups';
import { scheduleChecksItem, schedulesItem } from '@/lib/schedules/store';
import { onUnreadable, type StoredItem } from '@/lib/settings/item';
import * as storage from '@/lib/settings/storage';
import { accountOf, cacheAt, MINUTE, openPopup, T0 } from '../popup/popup-harness';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

/** Every item of lib/settings/storage.ts, and those the features keep in their own folders. */
const items = (
  [
    ...Object.entries(storage),
    ['schedulesItem', schedulesItem],
    ['scheduleChecksItem', scheduleChecksItem],
    ['policyAccountsItem', policyAccountsItem],
    ['profileGroupsItem', profileGroupsItem],
  ] as [string, unknown][]
).filter(
  (entry): entry is [string, StoredItem<unknown>] =>
    typeof entry[1] === 'object' && entry[1] !== null && 'fromStored' in entry[1],
);

/** Values no version of the extension writes: any JSON-like value, often of the wrong type. */
const garbage = fc.oneof(
  fc.anything({ maxDepth: 3, withNullPrototype: false }),
  fc.constantFrom({ unexpected: true }, [1, 2, 3], 'text', 42, true, [{}], [[]], { v: 99 }),
);

describe.each(items)('%s', (_name, item) => {
  it('reads garbage as its fallback or a value of its structure, without throwing', async () => {
    await fc.assert(
      fc.asyncProperty(garbage, async (raw) => {
        fakeBrowser.reset();
        await fakeBrowser.storage[item.area].set({ [item.name]: raw });
        let heard: readonly string[] = [];
        const stop = onUnreadable((keys) => {
          heard = keys;
        });
        const value = await item.getValue();
        stop();
        // The fallback, or a value of the item's structure (which reads as itself).
        expect(item.fromStored(value)).toBe(value);
        // A value other than what was stored: the page was told it could not read it.
        if (raw !== null && raw !== undefined && JSON.stringify(value) !== JSON.stringify(raw))
          expect(heard).toContain(item.key);
      }),
      { numRuns: 40 },
    );
  });
});

describe('the popup, with garbage in every key it reads as it opens', () => {
  it('still shows a verdict or says what to do, and names what it could not read', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(garbage, { minLength: items.length, maxLength: items.length }),
        async (values) => {
          cleanup();
          fakeBrowser.reset();
          await cacheAt(T0 - MINUTE).saveLists('A:default', accountOf('A'), { whitelist: [], blocklist: [] });
          const popup = await openPopup({ url: 'https://www.example.com/', form: 'A' });
          await popup.started;
          cleanup();
          // The same settings, with garbage written over every other key.
          for (const [index, [, item]] of items.entries()) {
            if (['local:apiKey', 'local:apiKeyFingerprint', 'local:connection'].includes(item.key)) continue;
            await fakeBrowser.storage[item.area].set({ [item.name]: values[index] });
          }
          const again = await openPopup({ url: 'https://www.example.com/', form: 'A', key: '' });
          await again.started;
          await waitFor(() =>
            expect(screen.getByRole('status', { name: 'Verdict' }).textContent).toMatch(
              /^(Blocked|Allowed|Not blocked)/,
            ),
          );
        },
      ),
      // A run that never shows a verdict fails on its own, with the seed and the values that
      // stalled it, instead of the whole test timing out without either.
      { numRuns: 12, timeout: 5_000, endOnFailure: true },
    );
  });

  it('says which saved data it could not read', async () => {
    await fakeBrowser.storage.local.set({ outbox: 'not a list of changes' });
    const popup = await openPopup({ url: 'https://www.example.com/', form: 'A' });
    await popup.started;
    expect(await screen.findByText(/could not be read.*the changes waiting to be sent/)).toBeTruthy();
  });
});
