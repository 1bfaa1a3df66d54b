import { createApiClient } from '@/lib/api';
import type { DnsFilterApi } from '@/lib/api/types';
import { apiKeyItem, apiTimeoutForTestsItem, connectionItem } from './storage';

/** The client for the stored settings, or null while no key is set (the UI then says what to do). */
export async function createConfiguredClient(
  deps: { fetch?: typeof fetch } = {},
): Promise<DnsFilterApi | null> {
  const [key, connection, timeoutMs] = await Promise.all([
    apiKeyItem.getValue(),
    connectionItem.getValue(),
    apiTimeoutForTestsItem.getValue(),
  ]);
  if (!key) return null;
  return createApiClient({
    baseUrl: connection.baseUrl,
    form: connection.form,
    key,
    fetch: deps.fetch,
    timeoutMs: timeoutMs ?? undefined,
  });
}
