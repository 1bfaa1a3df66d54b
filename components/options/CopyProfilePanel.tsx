/**
 * "Copy a profile" in the Profiles section (Form A; docs/several-profiles.md, "Copying a
 * profile"): into a new profile or onto an existing one, after a preview of every change and a
 * confirmation; one outcome per change, and a Retry of those not done.
 */
import { useId, useState } from 'preact/hooks';
import { listName } from '@/lib/api/attempts';
import { describeCategory } from '@/lib/api/categories';
import { isApiError } from '@/lib/api/errors';
import { scopeKey } from '@/lib/api/forms';
import { t } from '@/lib/i18n';
import {
  applyCopy,
  type CopyPlan,
  type CopyStep,
  countSteps,
  planCopy,
  readProfileSettings,
  type StepOutcome,
} from '@/lib/profile-groups/copy';
import { rememberDefaultBlock } from '@/lib/settings/local-records';
import { defaultBlockItem } from '@/lib/settings/storage';
import { validateProfileName } from '@/lib/validation';
import { useConfirm } from '../ConfirmDialog';
import { useStoredValue } from '../useStoredValue';
import { useAccount } from './account-context';

/** The preview lists this many changes; the count says the rest. */
const SHOWN_STEPS = 40;
const NEW_PROFILE = '';

export function stepText(step: CopyStep): string {
  switch (step.kind) {
    case 'add-profile':
      return t('profileGroups.copy.stepAddProfile', { profile: step.profile });
    case 'category':
      return t(step.blocked ? 'profileGroups.copy.stepBlock' : 'profileGroups.copy.stepAllow', {
        category: describeCategory('A', step.category).label,
      });
    case 'default-block':
      return t(step.enabled ? 'profileGroups.copy.stepDefaultOn' : 'profileGroups.copy.stepDefaultOff');
    default:
      return t(step.op === 'add' ? 'profileGroups.copy.stepAdd' : 'profileGroups.copy.stepRemove', {
        domain: step.domain,
        list: listName(step.list),
      });
  }
}

type Phase =
  | { state: 'idle' }
  | { state: 'reading' }
  | { state: 'failed'; message: string }
  | { state: 'planned'; plan: CopyPlan }
  | { state: 'sending'; plan: CopyPlan; done: number; total: number }
  | { state: 'sent'; plan: CopyPlan; outcomes: StepOutcome[] };

export function CopyProfilePanel({
  profiles,
  onChanged,
}: {
  profiles: readonly string[];
  /** The account's profiles changed: list them again. */
  onChanged: () => void;
}) {
  const { client, now = Date.now } = useAccount();
  const known = useStoredValue(defaultBlockItem, null);
  const { confirm, dialog } = useConfirm();
  const [from, setFrom] = useState(profiles[0] ?? 'default');
  const [onto, setOnto] = useState(NEW_PROFILE);
  const [newName, setNewName] = useState('');
  const [phase, setPhase] = useState<Phase>({ state: 'idle' });
  const ids = { from: useId(), onto: useId(), name: useId(), heading: useId() };
  const busy = phase.state === 'reading' || phase.state === 'sending';
  const knownDefault = (profile: string) => known?.[scopeKey('A', profile)]?.enabled ?? null;

  const show = async () => {
    let target = onto;
    if (onto === NEW_PROFILE) {
      const checked = validateProfileName(newName);
      if (!checked.ok) return setPhase({ state: 'failed', message: checked.message });
      if (profiles.includes(checked.value))
        return setPhase({ state: 'failed', message: t('profiles.exists', { profile: checked.value }) });
      target = checked.value;
    }
    if (target === from) return setPhase({ state: 'failed', message: t('profileGroups.copy.sameProfile') });
    setPhase({ state: 'reading' });
    try {
      const [source, existing] = await Promise.all([
        readProfileSettings(client, from, knownDefault(from)),
        onto === NEW_PROFILE ? null : readProfileSettings(client, target, knownDefault(target)),
      ]);
      setPhase({ state: 'planned', plan: planCopy(from, source, target, existing) });
    } catch (error) {
      setPhase({ state: 'failed', message: isApiError(error) ? error.message : t('common.genericFailure') });
    }
  };

  const send = async (plan: CopyPlan, steps: readonly CopyStep[], earlier: StepOutcome[] = []) => {
    const confirmed =
      earlier.length > 0 ||
      (await confirm({
        title: t('profileGroups.copy.confirmTitle', { from: plan.from, profile: plan.to }),
        message: (
          <p>
            {t('profileGroups.copy.confirmText', { count: steps.length, from: plan.from, profile: plan.to })}
          </p>
        ),
        confirmLabel: t('profileGroups.copy.confirm'),
      }));
    if (!confirmed) return;
    setPhase({ state: 'sending', plan, done: 0, total: steps.length });
    const outcomes = await applyCopy(client, { to: plan.to, steps: [...steps] }, (done, total) =>
      setPhase({ state: 'sending', plan, done, total }),
    );
    for (const outcome of outcomes)
      if (outcome.ok && outcome.step.kind === 'default-block')
        await rememberDefaultBlock(scopeKey('A', plan.to), outcome.step.enabled, now()).catch(
          () => undefined,
        );
    // A retry's outcomes replace those of the same steps; steps never sent count as not done.
    const sentNow = new Map(outcomes.map((outcome) => [outcome.step, outcome]));
    const all =
      earlier.length > 0
        ? earlier.map((outcome) => sentNow.get(outcome.step) ?? outcome)
        : steps.map(
            (step) =>
              sentNow.get(step) ?? {
                step,
                ok: false,
                message: t('profileGroups.copy.notSent', { profile: plan.to }),
              },
          );
    setPhase({ state: 'sent', plan, outcomes: all });
    // The copy exists now: its name is no longer free for the next one.
    if (all.some((outcome) => outcome.ok && outcome.step.kind === 'add-profile')) setNewName('');
    if (outcomes.some((outcome) => outcome.ok)) onChanged();
  };

  const plan =
    phase.state === 'planned' || phase.state === 'sending' || phase.state === 'sent' ? phase.plan : null;
  const counts = plan ? countSteps(plan.steps) : null;
  const notDone = phase.state === 'sent' ? phase.outcomes.filter((outcome) => !outcome.ok) : [];

  return (
    <section aria-labelledby={ids.heading} class="copy-profile">
      <h3 id={ids.heading}>{t('profileGroups.copy.heading')}</h3>
      <p class="hint">{t('profileGroups.copy.about')}</p>
      <div class="field">
        <label for={ids.from}>{t('profileGroups.copy.from')}</label>
        <select
          id={ids.from}
          value={from}
          disabled={busy}
          onChange={(event) => {
            setFrom(event.currentTarget.value);
            setPhase({ state: 'idle' });
          }}
        >
          {profiles.map((profile) => (
            <option key={profile} value={profile}>
              {profile}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={ids.onto}>{t('profileGroups.copy.onto')}</label>
        <select
          id={ids.onto}
          value={onto}
          disabled={busy}
          onChange={(event) => {
            setOnto(event.currentTarget.value);
            setPhase({ state: 'idle' });
          }}
        >
          <option value={NEW_PROFILE}>{t('profileGroups.copy.newProfile')}</option>
          {profiles
            .filter((profile) => profile !== from)
            .map((profile) => (
              <option key={profile} value={profile}>
                {profile}
              </option>
            ))}
        </select>
      </div>
      {onto === NEW_PROFILE && (
        <div class="field">
          <label for={ids.name}>{t('profileGroups.copy.newName')}</label>
          <input
            id={ids.name}
            type="text"
            autoComplete="off"
            spellcheck={false}
            value={newName}
            disabled={busy}
            onInput={(event) => {
              setNewName(event.currentTarget.value);
              setPhase({ state: 'idle' });
            }}
          />
        </div>
      )}
      <div class="inline">
        <button type="button" aria-disabled={busy} onClick={() => !busy && void show()}>
          {t('profileGroups.copy.show')}
        </button>
      </div>
      {/* Present only with something to say: the section's own status stays the one status of an idle section. */}
      {phase.state !== 'idle' && phase.state !== 'planned' && (
        <div role="status">
          {phase.state === 'reading' && <p>{t('profileGroups.copy.reading')}</p>}
          {phase.state === 'failed' && <p class="message message-failed">{phase.message}</p>}
          {phase.state === 'sending' && (
            <p>{t('profileGroups.copy.sending', { done: phase.done, total: phase.total })}</p>
          )}
          {phase.state === 'sent' &&
            (notDone.length === 0 ? (
              <p class="message message-done">
                {t('profileGroups.copy.done', {
                  from: phase.plan.from,
                  profile: phase.plan.to,
                  total: phase.outcomes.length,
                })}
              </p>
            ) : (
              <div class="message message-failed">
                <p>
                  {t('profileGroups.copy.partly', {
                    from: phase.plan.from,
                    profile: phase.plan.to,
                    done: phase.outcomes.length - notDone.length,
                    total: phase.outcomes.length,
                  })}
                </p>
                <ul>
                  {notDone.map((outcome) => (
                    <li key={stepText(outcome.step)}>
                      {stepText(outcome.step)}: {outcome.message}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
        </div>
      )}
      {plan && counts && phase.state === 'planned' && (
        <div class="card copy-preview">
          {plan.steps.length === 0 ? (
            <p>{t('profileGroups.copy.nothing', { from: plan.from, profile: plan.to })}</p>
          ) : (
            <>
              <p>
                {t('profileGroups.copy.summary', {
                  categories: counts.categories,
                  additions: counts.additions,
                  removals: counts.removals,
                  defaultBlock: counts.defaultBlock ? t('profileGroups.copy.defaultBlockToo') : '',
                })}
              </p>
              <ul aria-label={t('profileGroups.copy.previewList', { profile: plan.to })}>
                {plan.steps.slice(0, SHOWN_STEPS).map((step) => (
                  <li key={stepText(step)} data-kind={step.kind}>
                    {stepText(step)}
                  </li>
                ))}
              </ul>
              {plan.steps.length > SHOWN_STEPS && (
                <p class="hint">{t('profileGroups.copy.more', { count: plan.steps.length - SHOWN_STEPS })}</p>
              )}
            </>
          )}
          {plan.defaultBlockUnknown && (
            <p class="hint">
              {t('profileGroups.copy.defaultBlockUnknown', { from: plan.from, profile: plan.to })}
            </p>
          )}
          {plan.steps.length > 0 && (
            <div class="inline">
              <button type="button" class="btn btn-primary" onClick={() => void send(plan, plan.steps)}>
                {t('profileGroups.copy.button')}
              </button>
            </div>
          )}
        </div>
      )}
      {phase.state === 'sent' && notDone.length > 0 && (
        <div class="inline">
          <button
            type="button"
            class="btn btn-primary"
            onClick={() =>
              void send(
                phase.plan,
                notDone.map((outcome) => outcome.step),
                phase.outcomes,
              )
            }
          >
            {t('profileGroups.copy.retry')}
          </button>
        </div>
      )}
      {dialog}
    </section>
  );
}
