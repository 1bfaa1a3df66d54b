import { useEffect, useState } from 'preact/hooks';
import type { AccountIdentity } from '@/lib/identity/identity';
import { apiKeyItem, connectionItem, storedAccountIdentity } from '@/lib/settings/storage';

/** The identity of the account configured now (a key, or none), following Setup; null until read. */
export function useAccountIdentity(): AccountIdentity | null {
  const [identity, setIdentity] = useState<AccountIdentity | null>(null);
  useEffect(() => {
    let latest = 0;
    let disposed = false;
    const read = () => {
      const attempt = ++latest;
      void storedAccountIdentity().then(
        (next) => {
          if (!disposed && attempt === latest) setIdentity(next);
        },
        () => undefined,
      );
    };
    read();
    const unwatchKey = apiKeyItem.watch(read);
    const unwatchConnection = connectionItem.watch(read);
    return () => {
      disposed = true;
      unwatchKey();
      unwatchConnection();
    };
  }, []);
  return identity;
}
