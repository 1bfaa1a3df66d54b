/**
 * What pages say about a change to several profiles (docs/several-profiles.md): the preview per
 * profile before it is sent, and the outcomes after. Pure, and light enough for the popup: no
 * outbox, no zod.
 */
import { listName } from '@/lib/api/attempts';
import type { Membership } from '@/lib/cache/list-changes';
import { t } from '@/lib/i18n';
import type { ChangeOutcome, ListChange, SeveralOutcomes } from '@/lib/messaging/protocol';

export type ProfileOutcome = SeveralOutcomes['outcomes'][number];

/** What the change will do for one profile, before anything is sent. */
export interface ProfilePreview {
  profile: string;
  /**
   * `add`: goes on the list; `move`: comes off the other list and goes on this one; `already`:
   * on the list already (sent again: harmless, and it confirms); `unknown`: this browser has not
   * read that profile's lists, so it may come off the other list too.
   */
  effect: 'add' | 'move' | 'already' | 'unknown';
  text: string;
}

/**
 * The preview of adding `domain` to `list` for each profile. `membershipOf` says where the domain
 * is in a profile's lists as this browser last read them, or null when it has not read them.
 */
export function previewForProfiles(
  list: ListChange['list'],
  domain: string,
  profiles: readonly string[],
  membershipOf: (profile: string) => Membership | null,
): ProfilePreview[] {
  const other = listName(list === 'whitelist' ? 'blocklist' : 'whitelist');
  const words = { domain, list: listName(list) };
  return profiles.map((profile) => {
    const membership = membershipOf(profile);
    if (membership === null)
      return { profile, effect: 'unknown', text: t('profileGroups.preview.unknown', { ...words, other }) };
    if (membership === list)
      return { profile, effect: 'already', text: t('profileGroups.preview.already', words) };
    if (membership === 'none') return { profile, effect: 'add', text: t('profileGroups.preview.add', words) };
    return { profile, effect: 'move', text: t('profileGroups.preview.move', { ...words, other }) };
  });
}

/** Every profile's outcome when nothing was changed, with why. */
export const allFailed = (profiles: readonly string[], message: string): SeveralOutcomes => ({
  outcomes: profiles.map((profile) => ({ profile, state: 'failed', message })),
});

/** The profiles whose change was refused: what a Retry sends again. */
export const failedProfiles = (outcomes: readonly ProfileOutcome[]): string[] =>
  outcomes.filter((outcome) => outcome.state === 'failed').map((outcome) => outcome.profile);

/**
 * One line over the outcomes: how many profiles have the change, and which are waiting or were
 * refused, so a change that reached only some profiles is never reported as done.
 */
export function summaryOf(outcomes: readonly ProfileOutcome[]): {
  state: ChangeOutcome['state'];
  text: string;
} {
  const done = outcomes.filter((outcome) => outcome.state === 'delivered').length;
  const failed = failedProfiles(outcomes);
  const waiting = outcomes.filter((outcome) => outcome.state === 'pending').map((outcome) => outcome.profile);
  const parts = [t('profileGroups.summary.done', { done, total: outcomes.length })];
  if (waiting.length > 0) parts.push(t('profileGroups.summary.waiting', { profiles: waiting.join(', ') }));
  if (failed.length > 0) parts.push(t('profileGroups.summary.failed', { profiles: failed.join(', ') }));
  const state = failed.length > 0 ? 'failed' : waiting.length > 0 ? 'pending' : 'delivered';
  return { state, text: parts.join(' ') };
}
