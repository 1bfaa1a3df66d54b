/**
 * The stored settings the popup reads as it opens, by name, in one storage round trip (most of
 * them answered by the reads entrypoints/popup-start.ts began, early-reads.ts).
 */
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
import { getValues } from '@/lib/settings/stored-reads';
import type { ValidatedItem } from '@/lib/settings/validated-item';
import { markStep } from './mark-step';

const START_ITEMS = {
  key: apiKeyItem,
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
};

/** The values of named items in one storage round trip (`getValues`), by the same names. */
async function getNamedValues<Items extends Record<string, ValidatedItem<unknown>>>(
  items: Items,
): Promise<ValuesByName<Items>> {
  const names = Object.keys(items);
  const values = await getValues(names.map((name) => items[name]!));
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as ValuesByName<Items>;
}

export async function readStartSettings(): Promise<StartSettings> {
  const settings = readsApiTimeoutForTests
    ? await getNamedValues({ ...START_ITEMS, timeoutMs: apiTimeoutForTestsItem })
    : { ...(await getNamedValues(START_ITEMS)), timeoutMs: null };
  markStep('settings');
  return settings;
}
