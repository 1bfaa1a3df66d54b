/**
 * The profiles the menu offers, from `profilesCacheItem`: menus are built in `onInstalled`
 * and must not wait for the network, so the last listed profiles are kept in storage.
 */

import { displayName, readAccounts } from '@/lib/accounts/store';
import { capabilitiesOf } from '@/lib/api/forms';
import type { CurrentAccount } from '@/lib/identity/current';
import { profileGroupsItem } from '@/lib/profile-groups/groups';
import {
  chosenProfileItem,
  contextMenuSettingsItem,
  profilesCacheItem,
  storedAccountIdentity,
} from '@/lib/settings/storage';
import type { MenuInput } from './menu-items';

/** Lists the profiles and keeps them for the menu; without profile selection (Form B) no call. */
export async function refreshProfilesCache(
  { identity, client }: CurrentAccount,
  now: () => number = Date.now,
): Promise<void> {
  if (!capabilitiesOf(identity.form).profileSelection || !client) return;
  const profiles = await client.listProfiles();
  await profilesCacheItem.setValue({ account: identity.id, profiles, at: now() });
}

/**
 * Everything `buildMenuItems` needs, from storage: the active account's. Profiles of another
 * account are ignored; with more than one account, the titles name the active one.
 */
export async function readMenuInput(): Promise<MenuInput> {
  const [account, cache, settings, chosenProfile, accounts, groups] = await Promise.all([
    storedAccountIdentity(),
    profilesCacheItem.getValue(),
    contextMenuSettingsItem.getValue(),
    chosenProfileItem.getValue(),
    readAccounts(),
    profileGroupsItem.getValue(),
  ]);
  const profiles = cache && cache.account === account.id ? cache.profiles : [];
  const active = accounts.accounts.find((candidate) => candidate.active);
  return {
    enabled: settings.enabled,
    form: account.form,
    profiles,
    fallbackProfile: chosenProfile,
    groups: groups.map(({ id, name }) => ({ id, name })),
    ...(accounts.accounts.length > 1 && active ? { accountName: displayName(active) } : {}),
  };
}
