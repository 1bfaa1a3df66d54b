import { type AccountIdentity, accountIdentity } from '@/lib/identity/identity';
import { type Followable, followableRead } from '@/lib/settings/follow';
import { getValues } from '@/lib/settings/item';
import {
  apiKeyItem,
  apiTimeoutForTestsItem,
  type ConnectionSettings,
  connectionItem,
  readsApiTimeoutForTests,
} from '@/lib/settings/storage';
import { createApiClient } from './client';
import type { ApiClientConfig, DnsFilterApi } from './types';

/** What a client is made from: read from storage, or handed over by a page that has read them. */
export interface ClientSettings {
  key: string;
  connection: ConnectionSettings;
  /** `apiTimeoutForTestsItem` (read only by the fault tests' build): null keeps the client's default. */
  timeoutMs: number | null;
}

/**
 * The client's settings from storage: the key and the connection from ONE `get`, so a save of
 * both that lands while they are read is seen whole or not at all, never a new key with the old
 * address (docs/architecture.md, "Several accounts": no reader sees one account's key with
 * another's connection).
 */
export async function readClientSettings(): Promise<ClientSettings> {
  const [key, connection, timeoutMs] = await getValues([
    apiKeyItem,
    connectionItem,
    ...(readsApiTimeoutForTests ? [apiTimeoutForTestsItem] : []),
  ] as const);
  return { key, connection, timeoutMs: timeoutMs ?? null };
}

/**
 * The client for the stored settings, or null while no key is set (the UI then says what to do).
 * `settings`, when the caller has just read them (the popup), saves reading them again.
 */
export async function createConfiguredClient(
  deps: { fetch?: typeof fetch; settings?: ClientSettings } = {},
): Promise<DnsFilterApi | null> {
  const { key, connection, timeoutMs } = deps.settings ?? (await readClientSettings());
  if (!key) return null;
  return createApiClient({
    baseUrl: connection.baseUrl,
    form: connection.form,
    key,
    fetch: deps.fetch,
    timeoutMs: timeoutMs ?? undefined,
  });
}

/** The client for the stored settings, as a page shows it: ready, or waiting for a key. */
export type ConfiguredClient =
  | { state: 'no-key' }
  | {
      state: 'ready';
      client: DnsFilterApi;
      connection: ConnectionSettings;
      /** The account these settings name (lib/identity/identity.ts): what caches and changes are tagged with. */
      account: AccountIdentity;
    };

async function readConfiguredClient(): Promise<ConfiguredClient> {
  try {
    const settings = await readClientSettings();
    const [client, account] = await Promise.all([
      createConfiguredClient({ settings }),
      accountIdentity(settings),
    ]);
    return client
      ? { state: 'ready', client, connection: settings.connection, account }
      : { state: 'no-key' };
  } catch {
    // An unusable stored address: Setup says what is wrong with it.
    return { state: 'no-key' };
  }
}

/** The stored key and connection, read again whenever one of them changes (Setup follows them). */
export const storedClientSettings: Followable<ClientSettings> = followableRead(
  [apiKeyItem, connectionItem],
  readClientSettings,
);

/** The client for the stored settings, built again whenever the key or the connection changes. */
export const configuredClient: Followable<ConfiguredClient> = followableRead(
  [apiKeyItem, connectionItem],
  readConfiguredClient,
);

/** A client for what the user typed but has not saved (Setup's Test connection). */
export async function createDraftClient(
  draft: Pick<ApiClientConfig, 'key' | 'baseUrl' | 'form'>,
): Promise<DnsFilterApi> {
  const timeoutMs = readsApiTimeoutForTests ? await apiTimeoutForTestsItem.getValue() : null;
  return createApiClient({ ...draft, timeoutMs: timeoutMs ?? undefined });
}
