import { useEffect, useState } from 'preact/hooks';
import { createConfiguredClient } from '@/lib/api/configured-client';
import type { DnsFilterApi } from '@/lib/api/types';
import { apiKeyItem, type ConnectionSettings, connectionItem } from '@/lib/settings/storage';

export type ConfiguredClient =
  | { state: 'loading' }
  | { state: 'no-key' }
  | { state: 'ready'; client: DnsFilterApi; connection: ConnectionSettings };

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
      void Promise.all([createConfiguredClient(), connectionItem.getValue()]).then(
        ([client, connection]) => {
          if (isCurrent())
            setConfigured(client ? { state: 'ready', client, connection } : { state: 'no-key' });
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
