/**
 * The stored settings the popup reads as it opens, by name, in one storage round trip (answered
 * by the reads the first script began, ./first-script.ts). The first view needs the key's
 * fingerprint, stored beside the key; the key itself is read only when the service is called.
 */
import { keyFingerprint } from '@/lib/identity/identity';
import { getValues, type StoredItem } from '@/lib/settings/item';
import {
  addedTldsItem,
  apiKeyFingerprintItem,
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
import { markStep } from './mark-step';

const START_ITEMS = {
  connection: connectionItem,
  fingerprint: apiKeyFingerprintItem,
  chosenProfile: chosenProfileItem,
  rememberedDomains: registrableDomainsItem,
  addedTlds: addedTldsItem,
  defaultBlocks: defaultBlockItem,
  outbox: outboxItem,
  settled: settledChangesItem,
};

type ValuesByName<Items extends Record<string, StoredItem<unknown>>> = {
  [Name in keyof Items]: Items[Name] extends StoredItem<infer T> ? T : never;
};

export type StartSettings = Omit<ValuesByName<typeof START_ITEMS>, 'fingerprint'> & {
  /** The test-only client time limit (apiTimeoutForTestsItem); null, unread, in the shipped build. */
  timeoutMs: number | null;
  /** The stored API key ('' when none), read when first asked for. */
  key(): Promise<string>;
  /** The key's fingerprint (lib/identity/identity.ts), `NO_KEY` when no key is set. */
  keyFingerprint: string;
};

/** The values of named items in one storage round trip (`getValues`), by the same names. */
async function getNamedValues<Items extends Record<string, StoredItem<unknown>>>(
  items: Items,
): Promise<ValuesByName<Items>> {
  const names = Object.keys(items);
  const values = await getValues(names.map((name) => items[name]!));
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as ValuesByName<Items>;
}

export async function readStartSettings(): Promise<StartSettings> {
  const { fingerprint, ...values } = await getNamedValues(START_ITEMS);
  const timeoutMs = readsApiTimeoutForTests ? await apiTimeoutForTestsItem.getValue() : null;
  let keyRead: Promise<string> | undefined;
  const key = () => {
    keyRead ??= apiKeyItem.getValue();
    return keyRead;
  };
  // A key stored before its fingerprint was kept beside it, until the worker has worked it out.
  const settings = {
    ...values,
    timeoutMs,
    key,
    keyFingerprint: fingerprint || (await keyFingerprint(await key())),
  };
  markStep('settings');
  return settings;
}
