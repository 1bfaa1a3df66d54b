/**
 * The stored settings the popup reads as it opens, by name, in one storage round trip (answered
 * by the reads the first script began, ./first-script.ts). The first view needs the key's
 * fingerprint, stored beside the key; the key itself is read only when the service is called.
 */
import { keyFingerprint } from '@/lib/identity/identity';
import { getValues } from '@/lib/settings/item';
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

export async function readStartSettings() {
  const [
    connection,
    fingerprint,
    chosenProfile,
    rememberedDomains,
    addedTlds,
    defaultBlocks,
    outbox,
    settled,
  ] = await getValues([
    connectionItem,
    apiKeyFingerprintItem,
    chosenProfileItem,
    registrableDomainsItem,
    addedTldsItem,
    defaultBlockItem,
    outboxItem,
    settledChangesItem,
  ] as const);
  // The test-only client time limit: null, unread, in the shipped build.
  const timeoutMs = readsApiTimeoutForTests ? await apiTimeoutForTestsItem.getValue() : null;
  let keyRead: Promise<string> | undefined;
  /** The stored API key ('' when none), read when first asked for. */
  const key = () => {
    keyRead ??= apiKeyItem.getValue();
    return keyRead;
  };
  const settings = {
    connection,
    chosenProfile,
    rememberedDomains,
    addedTlds,
    defaultBlocks,
    outbox,
    settled,
    timeoutMs,
    key,
    // A key stored before its fingerprint was kept beside it, until the worker has worked it out.
    keyFingerprint: fingerprint || (await keyFingerprint(await key())),
  };
  markStep('settings');
  return settings;
}
