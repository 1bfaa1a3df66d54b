/**
 * The profiles the menu offers, from `profilesCacheItem`: menus are built in `onInstalled`
 * and must not wait for the network, so the last listed profiles are kept in storage.
 */
import { capabilitiesOf } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import {
  accountTag,
  chosenProfileItem,
  connectionItem,
  contextMenuSettingsItem,
  profilesCacheItem,
} from '@/lib/settings/storage';
import type { MenuInput } from './menu-items';

/** Lists the profiles and keeps them for the menu; without profile selection (Form B) no call. */
export async function refreshProfilesCache(
  client: DnsFilterApi,
  now: () => number = Date.now,
): Promise<void> {
  const connection = await connectionItem.getValue();
  if (!capabilitiesOf(connection.form).profileSelection) return;
  const profiles = await client.listProfiles();
  await profilesCacheItem.setValue({ account: accountTag(connection), profiles, at: now() });
}

/** Everything `buildMenuItems` needs, from storage. Profiles of another account are ignored. */
export async function readMenuInput(): Promise<MenuInput> {
  const [connection, cache, settings, chosenProfile] = await Promise.all([
    connectionItem.getValue(),
    profilesCacheItem.getValue(),
    contextMenuSettingsItem.getValue(),
    chosenProfileItem.getValue(),
  ]);
  const profiles = cache && cache.account === accountTag(connection) ? cache.profiles : [];
  return { enabled: settings.enabled, form: connection.form, profiles, fallbackProfile: chosenProfile };
}
