/**
 * What a page does about several profiles (docs/several-profiles.md): sends a change for several
 * profiles to the worker, and reads and writes the saved groups. Components receive these as
 * `SeveralProfilesActions` (tests pass their own), so no component sends or stores anything.
 */
import { t } from '@/lib/i18n';
import type { ListChange, SeveralOutcomes } from '@/lib/messaging/protocol';
import { exclusively, randomId } from '@/lib/outbox/lease';
import { loadWorker } from '@/lib/popup/worker';
import { type GroupsUpdate, type ProfileGroup, profileGroupsItem, removeGroup, saveGroup } from './groups';
import { allFailed } from './preview';

export interface SeveralProfilesActions {
  /** Never rejects: a worker that does not answer makes every profile's outcome say so. */
  submit(change: ListChange, profiles: readonly string[], accountId: string): Promise<SeveralOutcomes>;
  readGroups(): Promise<ProfileGroup[]>;
  /** Saves `profiles` under `name` (replacing a group of that name); the groups, or why not. */
  saveGroup(name: string, profiles: readonly string[]): Promise<GroupsUpdate>;
  deleteGroup(id: string): Promise<ProfileGroup[]>;
}

/** Read-modify-write of the groups under one lock: two pages saving at once lose nothing. */
function updateGroups(update: (groups: ProfileGroup[]) => GroupsUpdate): Promise<GroupsUpdate> {
  return exclusively('profile-groups', async () => {
    const next = update(await profileGroupsItem.getValue());
    if (next.ok) await profileGroupsItem.setValue(next.groups);
    return next;
  });
}

export const severalProfilesActions: SeveralProfilesActions = {
  submit: (change, profiles, accountId) =>
    loadWorker()
      .then((worker) => worker.submitToProfiles({ change, profiles: [...profiles], accountId }))
      // No answer a page could read: nothing was changed.
      .catch(() => allFailed(profiles, t('popup.workerNoAnswer'))),
  readGroups: () => profileGroupsItem.getValue(),
  saveGroup: (name, profiles) => updateGroups((groups) => saveGroup(groups, name, profiles, randomId)),
  deleteGroup: async (id) => {
    const result = await updateGroups((groups) => ({ ok: true, groups: removeGroup(groups, id) }));
    return result.ok ? result.groups : [];
  },
};
