/**
 * "Several profiles": the same Whitelist or Blocklist click for several profiles at once, or for a
 * saved group of them (Form A; docs/several-profiles.md). A preview per profile before anything is
 * sent, one outcome per profile after, and a Retry that sends the failed profiles only. Loaded
 * with the extras (./PopupExtras.tsx), after the verdict: the groups are read when it opens.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import type { Membership } from '@/lib/cache/list-changes';
import { t, tn } from '@/lib/i18n';
import type { ListChange } from '@/lib/messaging/protocol';
import type { ProfileGroup } from '@/lib/profile-groups/groups';
import { profilesOfGroup } from '@/lib/profile-groups/groups';
import { type SeveralProfilesActions, severalProfilesActions } from '@/lib/profile-groups/page-actions';
import {
  failedProfiles,
  type ProfileOutcome,
  previewForProfiles,
  summaryOf,
} from '@/lib/profile-groups/preview';
import { FLAT, STACK } from './UnbreakOffer';

const ROW = {
  display: 'flex',
  flexWrap: 'wrap',
  gap: 'var(--space-2, 8px)',
  alignItems: 'center',
  margin: 0,
} as const;
const LIST = { ...STACK, gap: 'var(--space-1, 4px)', paddingInlineStart: 0, listStyle: 'none' } as const;
const SMALL = { fontSize: 'var(--text-sm, 0.875rem)' } as const;

export interface SeveralProfilesPanelProps {
  domain: string;
  /** The profile the single buttons act on: ticked at first. */
  profile: string;
  /** The account's profiles as last read. */
  profiles: readonly string[];
  /** Where the domain is in the chosen profile's lists (null while unknown); other profiles are not read here. */
  membership: Membership | null;
  /** The host of the tab, recorded with each entry (lib/notes); none on the options page. */
  page?: string;
  /** Where the change is made (lib/notes records it): the popup unless said otherwise. */
  source?: ListChange['source'];
  /** The account the popup shows (the controller's `shownAccountId`); null once another is active. */
  shownAccount: () => Promise<string | null>;
  /** After a profile's change went through: the popup reads its lists again. */
  onDelivered?: () => void;
  actions?: SeveralProfilesActions;
}

type Run =
  | { state: 'idle' }
  | { state: 'running'; count: number }
  | { state: 'done'; list: ListChange['list']; outcomes: ProfileOutcome[] };

/** The badges of components/theme.css, as the verdict uses them: done allowed, waiting a warning, failed blocked. */
const BADGE = { delivered: 'badge-allowed', pending: 'badge-warning', failed: 'badge-blocked' } as const;

const stateWord = (state: ProfileOutcome['state']) =>
  t(
    state === 'delivered'
      ? 'profileGroups.popup.stateDelivered'
      : state === 'pending'
        ? 'profileGroups.popup.statePending'
        : 'profileGroups.popup.stateFailed',
  );

export function SeveralProfilesPanel({
  domain,
  profile,
  profiles,
  membership,
  page,
  shownAccount,
  onDelivered,
  source = 'popup',
  actions = severalProfilesActions,
}: SeveralProfilesPanelProps) {
  const [ticked, setTicked] = useState<readonly string[]>([profile]);
  const [groups, setGroups] = useState<ProfileGroup[] | null>(null);
  const [groupId, setGroupId] = useState('');
  const [groupName, setGroupName] = useState('');
  const [note, setNote] = useState<{ text: string; failed: boolean } | null>(null);
  const [run, setRun] = useState<Run>({ state: 'idle' });
  /** The list whose preview is shown: nothing is sent before the user confirms it. */
  const [asked, setAsked] = useState<ListChange['list'] | null>(null);
  const groupSelectId = useId();
  const groupNameId = useId();

  useEffect(() => {
    let live = true;
    void actions.readGroups().then(
      (read) => live && setGroups(read),
      () => live && setGroups([]),
    );
    return () => {
      live = false;
    };
  }, [actions]);

  // In the order of the account's profiles, whatever order they were ticked in.
  const chosen = profiles.filter((candidate) => ticked.includes(candidate));
  const busy = run.state === 'running';
  const toggle = (name: string, on: boolean) => {
    setGroupId('');
    setAsked(null);
    setTicked(on ? [...ticked, name] : ticked.filter((other) => other !== name));
  };
  const chooseGroup = (id: string) => {
    setGroupId(id);
    const group = groups?.find((candidate) => candidate.id === id);
    if (!group) return;
    const { present, missing } = profilesOfGroup(group, profiles);
    setAsked(null);
    setTicked(present);
    setNote(
      missing.length > 0
        ? { text: t('profileGroups.missingProfiles', { profiles: missing.join(', ') }), failed: true }
        : null,
    );
  };
  const save = async () => {
    const result = await actions.saveGroup(groupName, chosen);
    if (!result.ok) {
      setNote({ text: result.message, failed: true });
      return;
    }
    setGroups(result.groups);
    setGroupId(result.groups.find((group) => group.name === groupName.trim())?.id ?? '');
    setNote({ text: t('profileGroups.popup.groupSaved', { name: groupName.trim() }), failed: false });
    setGroupName('');
  };
  const remove = async (group: ProfileGroup) => {
    setGroups(await actions.deleteGroup(group.id));
    setGroupId('');
    setNote({ text: t('profileGroups.popup.groupDeleted', { name: group.name }), failed: false });
  };
  const send = async (list: ListChange['list'], targets: readonly string[], earlier?: ProfileOutcome[]) => {
    if (targets.length === 0 || busy) return;
    setAsked(null);
    setRun({ state: 'running', count: targets.length });
    const accountId = await shownAccount();
    const change: ListChange = { op: 'add', list, domain, source, ...(page === undefined ? {} : { page }) };
    const answer =
      accountId === null
        ? {
            outcomes: targets.map((name) => ({
              profile: name,
              state: 'failed' as const,
              message: t('popup.accountChanged'),
            })),
          }
        : await actions.submit(change, targets, accountId);
    // A retry replaces the outcomes of the profiles it sent; the others stay as they were.
    const outcomes = (earlier ?? []).map(
      (outcome) => answer.outcomes.find((retried) => retried.profile === outcome.profile) ?? outcome,
    );
    for (const outcome of answer.outcomes)
      if (!outcomes.some((known) => known.profile === outcome.profile)) outcomes.push(outcome);
    setRun({ state: 'done', list, outcomes });
    if (answer.outcomes.some((outcome) => outcome.state === 'delivered')) onDelivered?.();
  };

  const chosenGroup = groups?.find((group) => group.id === groupId);
  const preview =
    asked === null
      ? []
      : previewForProfiles(asked, domain, chosen, (name) => (name === profile ? membership : null));
  const failed = run.state === 'done' ? failedProfiles(run.outcomes) : [];
  const summary = run.state === 'done' ? summaryOf(run.outcomes) : null;

  return (
    <div class="several-profiles" style={STACK}>
      <fieldset style={{ ...STACK, border: 0, padding: 0 }} disabled={busy}>
        <legend class="muted" style={SMALL}>
          {t('profileGroups.popup.chooseProfiles')}
        </legend>
        <div style={ROW}>
          {profiles.map((name) => (
            <label key={name} style={{ ...ROW, gap: 'var(--space-1, 4px)' }}>
              <input
                type="checkbox"
                checked={ticked.includes(name)}
                onChange={(event) => toggle(name, event.currentTarget.checked)}
              />
              {name}
            </label>
          ))}
        </div>
      </fieldset>
      {/* Shown once there is a group to choose: an empty choice would only be in the way. */}
      {groups !== null && groups.length > 0 && (
        <div style={ROW}>
          <label for={groupSelectId} class="muted" style={SMALL}>
            {t('profileGroups.popup.savedGroup')}
          </label>
          <select
            id={groupSelectId}
            class="select"
            value={groupId}
            disabled={busy}
            onChange={(event) => chooseGroup(event.currentTarget.value)}
          >
            <option value="">{t('profileGroups.popup.noGroup')}</option>
            {(groups ?? []).map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </select>
          {chosenGroup && (
            <button
              type="button"
              class="btn btn-secondary btn-sm"
              disabled={busy}
              onClick={() => void remove(chosenGroup)}
            >
              {t('profileGroups.popup.deleteGroup', { name: chosenGroup.name })}
            </button>
          )}
        </div>
      )}
      <div style={ROW}>
        <label for={groupNameId} class="muted" style={SMALL}>
          {t('profileGroups.popup.groupName')}
        </label>
        <input
          id={groupNameId}
          type="text"
          autoComplete="off"
          style={{ flex: '1 1 6rem', minInlineSize: 0 }}
          value={groupName}
          onInput={(event) => setGroupName(event.currentTarget.value)}
        />
        <button
          type="button"
          class="btn btn-secondary btn-sm"
          disabled={busy || chosen.length === 0}
          onClick={() => void save()}
        >
          {t('profileGroups.popup.saveGroup')}
        </button>
      </div>
      {note && (
        <p class={note.failed ? 'message message-failed' : 'muted'} style={{ ...FLAT, ...SMALL }} role="note">
          {note.text}
        </p>
      )}
      {/* The popup's button row, drawn the same in the options page (which lacks the popup's CSS). */}
      <div
        class="list-buttons"
        style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 'var(--space-2, 8px)' }}
      >
        {(['whitelist', 'blocklist'] as const).map((list) => (
          <button
            key={list}
            type="button"
            class="btn btn-secondary"
            aria-expanded={asked === list}
            disabled={busy || chosen.length === 0}
            onClick={() => setAsked(asked === list ? null : list)}
          >
            {tn(
              list === 'whitelist' ? 'profileGroups.popup.whitelistFor' : 'profileGroups.popup.blocklistFor',
              chosen.length,
            )}
          </button>
        ))}
      </div>
      {asked !== null && chosen.length > 0 && (
        <div class="message message-warning" style={{ display: 'block' }}>
          <p class="message-title" style={{ ...FLAT, ...SMALL }}>
            {t('profileGroups.popup.previewHeading')}
          </p>
          <ul aria-label={t('profileGroups.popup.previewList')} style={{ ...LIST, ...SMALL }}>
            {preview.map((line) => (
              <li key={line.profile} data-effect={line.effect}>
                <strong>{line.profile}</strong>: {line.text}
              </li>
            ))}
          </ul>
          <div style={{ ...ROW, marginBlockStart: 'var(--space-2, 8px)' }}>
            <button type="button" class="btn btn-primary" onClick={() => void send(asked, chosen)}>
              {tn('profileGroups.popup.confirm', chosen.length)}
            </button>
            <button type="button" class="btn btn-secondary" onClick={() => setAsked(null)}>
              {t('common.cancel')}
            </button>
          </div>
        </div>
      )}
      <p role="status" aria-label={t('profileGroups.popup.outcomeRegion')} style={{ ...FLAT, ...SMALL }}>
        {run.state === 'running' && t('profileGroups.popup.sending', { count: run.count })}
        {summary?.text}
      </p>
      {run.state === 'done' && (
        <ul aria-label={t('profileGroups.popup.outcomeList')} style={{ ...LIST, ...SMALL }}>
          {run.outcomes.map((outcome) => (
            <li key={outcome.profile} data-state={outcome.state}>
              <strong>{outcome.profile}</strong>:{' '}
              <span class={`badge ${BADGE[outcome.state]}`}>{stateWord(outcome.state)}</span>{' '}
              <span class="muted">{outcome.message}</span>
            </li>
          ))}
        </ul>
      )}
      {run.state === 'done' && failed.length > 0 && (
        <button
          type="button"
          class="btn btn-primary"
          onClick={() => void send(run.list, failed, run.outcomes)}
        >
          {tn('profileGroups.popup.retryFailed', failed.length)}
        </button>
      )}
    </div>
  );
}
