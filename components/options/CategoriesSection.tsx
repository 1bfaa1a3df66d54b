import { useId, useState } from 'preact/hooks';
import { describeCategory, mergeWithCatalogue } from '@/lib/api/categories';
import type { ApiForm, CategoryState } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import { activeRuleOwning } from '@/lib/schedules/manual';
import { type OwnedChange, ScheduleOwnedNotice } from '../ScheduleOwnedNotice';
import { FailureNotice, StatusMessage } from '../StatusMessage';
import { useRemoteAction } from '../useRemoteAction';
import { useRemoteData } from '../useRemoteData';
import { propagationNote, scopePhrase, useAccount } from './account-context';
import { ScopeNote } from './ScopeNote';

/** Every category of the form with its description, including any the spec does not list. */
function categoryRows(form: ApiForm, states: readonly CategoryState[]) {
  return mergeWithCatalogue(form, states).map((state) => ({ ...describeCategory(form, state.id), ...state }));
}

export function CategoriesSection() {
  const { client, form, profile, onSettingChanged } = useAccount();
  const headingId = useId();
  const idPrefix = useId();
  const { data, update, reload } = useRemoteData(
    (signal) => client.listCategories(profile, { signal }),
    [client, profile],
  );
  const { status, run, busy } = useRemoteAction();
  // The state a toggle asked for, shown while the call runs; dropped (reverting the box) on failure.
  const [pending, setPending] = useState<{ id: string; blocked: boolean } | null>(null);
  // A schedule owns what was just changed: it says so (docs/schedules.md, "Manual changes").
  const [owned, setOwned] = useState<OwnedChange | null>(null);

  const toggle = async (id: string, label: string, blocked: boolean) => {
    setPending({ id, blocked });
    setOwned(null);
    const scope = scopePhrase(form, profile);
    const done = await run(
      t(blocked ? 'categories.blocking' : 'categories.allowing', { category: label, scope }),
      async () => {
        await client.setCategoryBlocked(id, blocked, profile);
        const change = { op: 'set-category', category: id, blocked, source: 'options' } as const;
        // The category itself changed whatever happens to a queued change: its failure is not this action's.
        await Promise.resolve(
          onSettingChanged?.(profile === undefined ? change : { ...change, profile }),
        ).catch(() => undefined);
        return true;
      },
      () =>
        t(blocked ? 'categories.nowBlocked' : 'categories.nowAllowed', {
          category: label,
          scope,
          note: propagationNote(),
        }),
    );
    if (done) {
      update((states) => {
        const others = states.filter((state) => state.id !== id);
        return [...others, { id, blocked }];
      });
    }
    setPending(null);
    const owner = done
      ? await activeRuleOwning(profile, { kind: 'category', category: id }, Date.now())
      : null;
    if (owner) setOwned({ ...owner, what: label });
  };

  const states = data.data;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('categories.heading')}</h2>
      <ScopeNote />
      {data.state === 'failed' ? (
        <FailureNotice message={data.message} advice={data.advice}>
          <button type="button" onClick={reload}>
            {t('categories.loadAgain')}
          </button>
        </FailureNotice>
      ) : states === undefined ? (
        <p class="hint">{t('categories.loading')}</p>
      ) : (
        <fieldset class="categories">
          <legend>{t('categories.legend')}</legend>
          <ul class="plain-list category-list">
            {categoryRows(form, states).map((category, index) => {
              const checked = pending?.id === category.id ? pending.blocked : category.blocked;
              const inputId = `${idPrefix}-${index}`;
              return (
                <li key={category.id} class="category">
                  <input
                    id={inputId}
                    type="checkbox"
                    checked={checked}
                    aria-describedby={`${inputId}-about`}
                    aria-disabled={busy}
                    onClick={(event) => {
                      // Not `disabled`: that would throw keyboard focus out of the list mid-action.
                      if (busy) event.preventDefault();
                    }}
                    onChange={(event) =>
                      void toggle(category.id, category.label, event.currentTarget.checked)
                    }
                  />
                  <label for={inputId}>{category.label}</label>
                  <span class={checked ? 'state state-blocked' : 'state state-allowed'}>
                    {checked ? t('categories.blocked') : t('categories.allowed')}
                  </span>
                  <span class="hint category-about" id={`${inputId}-about`}>
                    {category.description || category.id}
                  </span>
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}
      <StatusMessage status={status} />
      {owned && <ScheduleOwnedNotice {...owned} />}
    </section>
  );
}
