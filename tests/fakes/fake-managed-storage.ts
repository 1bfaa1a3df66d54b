/**
 * `storage.managed` as lib/policy reads it: what an administrator's policy file would hand over,
 * or a browser whose read fails (Firefox without a "3rdparty" entry for the extension).
 */
import type { CurrentPolicy } from '@/lib/policy/current';
import { managedScope } from '@/lib/policy/managed';
import { type ManagedStorageArea, NO_POLICY } from '@/lib/policy/policy';

export interface FakeManagedStorage extends ManagedStorageArea {
  /** Replaces the policy, as an administrator editing the file would. */
  setPolicy(policy: Record<string, unknown>): void;
  reads: number;
}

export function fakeManagedStorage(policy: Record<string, unknown> = {}): FakeManagedStorage {
  let current = structuredClone(policy);
  const fake: FakeManagedStorage = {
    reads: 0,
    async get() {
      fake.reads += 1;
      return structuredClone(current);
    },
    setPolicy(next) {
      current = structuredClone(next);
    },
  };
  return fake;
}

/** A browser that answers a failure (Firefox: "Managed storage manifest not found"). */
export const failingManagedStorage: ManagedStorageArea = {
  get: () => Promise.reject(new Error('Managed storage manifest not found')),
};

/** The worker's `policy` job (lib/messaging/handlers.ts) in a browser without a policy. */
export const noPolicy = async (): Promise<CurrentPolicy> => ({
  scope: managedScope(NO_POLICY),
  managedAccounts: new Set(),
});
