/**
 * The policy as pages and the worker use it: what it manages (./managed.ts) and which accounts of
 * this browser it set up (./stored.ts), read together and followed while either changes.
 */
import { browser } from 'wxt/browser';
import { type Followable, followableRead } from '@/lib/settings/follow';
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

/** The administrator's policy changing (its own storage area). */
const managedArea = {
  watch(callback: () => void) {
    const listener = (_changes: unknown, area: string) => area === 'managed' && callback();
    browser.storage.onChanged.addListener(listener);
    return () => browser.storage.onChanged.removeListener(listener);
  },
};

/** The policy, for `useStoredValue` in the pages: read again when it or the record changes. */
export const followedBrowserPolicy: Followable<CurrentPolicy> = followableRead(
  [policyAccountsItem, managedArea],
  () => readCurrentPolicy(browser.storage.managed),
);
