/**
 * The policy as pages and the worker use it: what it manages (./managed.ts) and which accounts of
 * this browser it set up (./stored.ts), read together and followed while either changes.
 */
import { browser } from 'wxt/browser';
import type { Followable } from '@/lib/settings/follow';
import { type ManagedScope, managedScope } from './managed';
import { type ManagedStorageArea, readPolicy } from './policy';
import { policyAccountsItem } from './stored';

export interface CurrentPolicy {
  scope: ManagedScope;
  /** The ids of the accounts the policy set up and still names. */
  managedAccounts: ReadonlySet<string>;
}

export async function readCurrentPolicy(area: ManagedStorageArea | undefined): Promise<CurrentPolicy> {
  const [reading, record] = await Promise.all([readPolicy(area), policyAccountsItem.getValue()]);
  const scope = managedScope(reading);
  const named = new Set(scope.accountNames);
  return {
    scope,
    managedAccounts: new Set(
      Object.entries(record)
        .filter(([, name]) => named.has(name))
        .map(([id]) => id),
    ),
  };
}

/** What `followedPolicy` needs of `browser.storage`. */
export interface PolicyStorage {
  managed?: ManagedStorageArea;
  onChanged: {
    addListener(listener: (changes: Record<string, unknown>, area: string) => void): void;
    removeListener(listener: (changes: Record<string, unknown>, area: string) => void): void;
  };
}

/** The current policy, read again whenever the administrator's policy or the record changes. */
export function followedPolicy(storage: PolicyStorage): Followable<CurrentPolicy> {
  return {
    getValue: () => readCurrentPolicy(storage.managed),
    watch(callback) {
      const listener = (changes: Record<string, unknown>, area: string) => {
        if (area === 'managed' || (area === policyAccountsItem.area && policyAccountsItem.name in changes))
          callback();
      };
      storage.onChanged.addListener(listener);
      return () => storage.onChanged.removeListener(listener);
    },
  };
}

/** The policy of this browser, for `useStoredValue` in the pages. */
export const followedBrowserPolicy: Followable<CurrentPolicy> = followedPolicy(browser.storage);
