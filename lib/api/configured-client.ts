import {
  apiKeyItem,
  apiTimeoutForTestsItem,
  type ConnectionSettings,
  connectionItem,
  readsApiTimeoutForTests,
} from '@/lib/settings/storage';
import { createApiClient } from './client';
import type { DnsFilterApi } from './types';

/** What a client is made from: read from storage, or handed over by a page that has read them. */
export interface ClientSettings {
  key: string;
  connection: ConnectionSettings;
  /** `apiTimeoutForTestsItem` (read only by the fault tests' build): null keeps the client's default. */
  timeoutMs: number | null;
}

/** The client's settings from storage. */
export async function readClientSettings(): Promise<ClientSettings> {
  const [key, connection, timeoutMs] = await Promise.all([
    apiKeyItem.getValue(),
    connectionItem.getValue(),
    readsApiTimeoutForTests ? apiTimeoutForTestsItem.getValue() : null,
  ]);
  return { key, connection, timeoutMs };
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
