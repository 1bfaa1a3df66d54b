/**
 * The stored settings the popup reads as it opens, by name, in one storage round trip (most of
 * them answered by the reads entrypoints/popup-start.ts began, early-reads.ts). Where the start
 * mirror answered (Firefox, start-mirror.ts), the API key's fingerprint comes from it, and the key
 * itself from storage, later: the first view needs only the fingerprint.
 */
import { keyFingerprint, NO_KEY } from '@/lib/account/identity';
import {
  addedTldsItem,
  apiKeyItem,
  apiTimeoutForTestsItem,
  chosenProfileItem,
  connectionItem,
  defaultBlockItem,
  outboxItem,
  readsApiTimeoutForTests,
  registrableDomainsItem,
  settledChangesItem,
} from '@/lib/settings/storage';
import { getValues, startKeyFingerprint } from '@/lib/settings/stored-reads';
import type { ValidatedItem } from '@/lib/settings/validated-item';
import { markStep } from './mark-step';

const START_ITEMS = {
  connection: connectionItem,
  chosenProfile: chosenProfileItem,
  rememberedDomains: registrableDomainsItem,
  addedTlds: addedTldsItem,
  defaultBlocks: defaultBlockItem,
  outbox: outboxItem,
  settled: settledChangesItem,
};

type ValuesByName<Items extends Record<string, ValidatedItem<unknown>>> = {
  [Name in keyof Items]: Items[Name] extends ValidatedItem<infer T> ? T : never;
};

export type StartSettings = ValuesByName<typeof START_ITEMS> & {
  /** The test-only client time limit (apiTimeoutForTestsItem); null, unread, in the shipped build. */
  timeoutMs: number | null;
  /** The stored API key ('' when none), which in Firefox may come after the rest. */
  key: Promise<string>;
  /** The key's fingerprint (lib/account/identity.ts), `NO_KEY` when no key is set. */
  keyFingerprint: string;
};

/** The values of named items in one storage round trip (`getValues`), by the same names. */
async function getNamedValues<Items extends Record<string, ValidatedItem<unknown>>>(
  items: Items,
): Promise<ValuesByName<Items>> {
  const names = Object.keys(items);
  const values = await getValues(names.map((name) => items[name]!));
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as ValuesByName<Items>;
}

/** START_ITEMS and `extra`'s values, with the test-only time limit where the build reads it. */
async function readStartItems<Extra extends Record<string, ValidatedItem<unknown>>>(extra: Extra) {
  return readsApiTimeoutForTests
    ? await getNamedValues({ ...START_ITEMS, ...extra, timeoutMs: apiTimeoutForTestsItem })
    : { ...(await getNamedValues({ ...START_ITEMS, ...extra })), timeoutMs: null };
}

export async function readStartSettings(): Promise<StartSettings> {
  const mirrored = await startKeyFingerprint();
  let settings: StartSettings;
  if (mirrored === undefined) {
    const { key, ...values } = await readStartItems({ key: apiKeyItem });
    settings = { ...values, key: Promise.resolve(key), keyFingerprint: await keyFingerprint(key) };
  } else {
    const key = apiKeyItem.getValue();
    key.catch(() => {});
    settings = { ...(await readStartItems({})), key, keyFingerprint: mirrored ?? NO_KEY };
  }
  markStep('settings');
  return settings;
}
