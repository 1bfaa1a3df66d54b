import { useEffect, useState } from 'preact/hooks';
import { readCurrentAccount } from '@/lib/account/current';
import type { AccountIdentity } from '@/lib/account/identity';
import { readClientSettings } from '@/lib/api/configured-client';
import type { DnsFilterApi } from '@/lib/api/types';
import { apiKeyItem, type ConnectionSettings, connectionItem } from '@/lib/settings/storage';

export type ConfiguredClient =
  | { state: 'loading' }
  | { state: 'no-key' }
  | { state: 'ready'; client: DnsFilterApi; connection: ConnectionSettings; account: AccountIdentity };

/**
 * The API client for the stored settings, rebuilt whenever the key or the connection changes
 * (Save or Forget key in Setup, or another tab), so every section follows the saved settings.
 */
export function useConfiguredClient(): ConfiguredClient {
  const [configured, setConfigured] = useState<ConfiguredClient>({ state: 'loading' });

  useEffect(() => {
    let latest = 0;
    let disposed = false;
    const rebuild = () => {
      const attempt = ++latest;
      const isCurrent = () => !disposed && attempt === latest;
      // One reading of the settings for the client, its connection and its account identity.
      void readClientSettings()
        .then(async (settings) => ({ settings, current: await readCurrentAccount({ settings }) }))
        .then(
          ({ settings: { connection }, current: { client, identity } }) => {
            if (isCurrent())
              setConfigured(
                client ? { state: 'ready', client, connection, account: identity } : { state: 'no-key' },
              );
          },
          () => {
            if (isCurrent()) setConfigured({ state: 'no-key' });
          },
        );
    };
    rebuild();
    const unwatchKey = apiKeyItem.watch(rebuild);
    const unwatchConnection = connectionItem.watch(rebuild);
    return () => {
      disposed = true;
      unwatchKey();
      unwatchConnection();
    };
  }, []);

  return configured;
}
