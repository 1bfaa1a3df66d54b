import { createApiClient } from '@/lib/api';
import type { DnsFilterApi } from '@/lib/api/types';
import { apiKeyItem, connectionItem } from './storage';

/** The client for the stored settings, or null while no key is set (the UI then says what to do). */
export async function createConfiguredClient(
  deps: { fetch?: typeof fetch } = {},
): Promise<DnsFilterApi | null> {
  const [key, connection] = await Promise.all([apiKeyItem.getValue(), connectionItem.getValue()]);
  if (!key) return null;
  return createApiClient({ baseUrl: connection.baseUrl, form: connection.form, key, fetch: deps.fetch });
}
