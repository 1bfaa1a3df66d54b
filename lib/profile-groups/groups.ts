/**
 * Saved profile groups ("all children"): a name for a set of profiles of one account, offered
 * wherever a change can go to several profiles (docs/several-profiles.md). Per account
 * (lib/accounts/store.ts ACCOUNT_ITEMS: parked with its account, removed with it), in the backup.
 * The functions here are pure: they take the groups and give the groups to write.
 */
import type * as z from 'zod/mini';
import { t } from '@/lib/i18n';
import { defineItem, type StoredItem } from '@/lib/settings/item';
import { arrayOf, object, string } from '@/lib/settings/shape';
import { invalid, type Validation, valid } from '@/lib/validation';
import { GROUP_NAME_MAX, MAX_GROUPS } from './limits';
import type { profileGroupSchema } from './schema';

export type ProfileGroup = z.infer<typeof profileGroupSchema>;

/** The structure of a stored value (lib/settings/shape.ts), checked on every read, without zod. */
const shape = arrayOf(object({ id: string, name: string, profiles: arrayOf(string) }));

export const profileGroupsItem: StoredItem<ProfileGroup[]> = defineItem<ProfileGroup[]>(
  'local:profileGroups',
  async () => (await import('./schema')).profileGroupsSchema,
  { shape, fallback: [], version: 1 },
);

/** A group's name as typed, trimmed; refused when empty, too long or taken by another group. */
function validateGroupName(input: string, groups: readonly ProfileGroup[], keepId?: string): Validation {
  const name = input.trim();
  if (name === '') return invalid(t('profileGroups.nameEmpty'));
  if (name.length > GROUP_NAME_MAX) return invalid(t('profileGroups.nameLong', { max: GROUP_NAME_MAX }));
  const taken = groups.some(
    (group) => group.id !== keepId && group.name.toLocaleLowerCase() === name.toLocaleLowerCase(),
  );
  return taken ? invalid(t('profileGroups.nameTaken', { name })) : valid(name);
}

export type GroupsUpdate = { ok: true; groups: ProfileGroup[] } | { ok: false; message: string };

/**
 * The groups with `name` saved as `profiles`: a group of that name is replaced (the user saves a
 * group again after changing its profiles), a new one is added while there is room.
 */
export function saveGroup(
  groups: readonly ProfileGroup[],
  name: string,
  profiles: readonly string[],
  newId: () => string,
): GroupsUpdate {
  const unique = [...new Set(profiles)];
  if (unique.length === 0) return { ok: false, message: t('profileGroups.noProfiles') };
  const same = groups.find((group) => group.name.toLocaleLowerCase() === name.trim().toLocaleLowerCase());
  const checked = validateGroupName(name, groups, same?.id);
  if (!checked.ok) return { ok: false, message: checked.message };
  if (same) {
    return {
      ok: true,
      groups: groups.map((group) =>
        group.id === same.id ? { ...group, name: checked.value, profiles: unique } : group,
      ),
    };
  }
  if (groups.length >= MAX_GROUPS)
    return { ok: false, message: t('profileGroups.tooMany', { max: MAX_GROUPS }) };
  return { ok: true, groups: [...groups, { id: newId(), name: checked.value, profiles: unique }] };
}

/**
 * The groups after an import: a group of the file replaces the one of the same name here, the
 * others are kept, within the bound (the file's come first when there is no room for all).
 */
export function mergeGroups(
  current: readonly ProfileGroup[],
  incoming: readonly ProfileGroup[],
): ProfileGroup[] {
  const names = new Set(incoming.map((group) => group.name.toLocaleLowerCase()));
  const kept = current.filter((group) => !names.has(group.name.toLocaleLowerCase()));
  return [...incoming, ...kept].slice(0, MAX_GROUPS);
}

export function removeGroup(groups: readonly ProfileGroup[], id: string): ProfileGroup[] {
  return groups.filter((group) => group.id !== id);
}

/**
 * The profiles of `group` that the account still has, and those it no longer has (deleted at the
 * dashboard since): a change never goes to a profile that is gone, and the user is told which.
 */
export function profilesOfGroup(
  group: ProfileGroup,
  existing: readonly string[] | null,
): { present: string[]; missing: string[] } {
  if (existing === null) return { present: [...group.profiles], missing: [] };
  const known = new Set(existing);
  return {
    present: group.profiles.filter((profile) => known.has(profile)),
    missing: group.profiles.filter((profile) => !known.has(profile)),
  };
}
