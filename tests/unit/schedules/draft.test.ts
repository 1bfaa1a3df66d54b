/** The editor's draft (docs/schedules.md, "The editor"): a rule survives the editor whole, and its limits are named. */
import { describe, expect, it } from 'vitest';
import { type AccountStateNow, draftOf, newDraft, ruleFromDraft } from '@/lib/schedules/draft';
import type { ScheduleRule } from '@/lib/schedules/schema';
import { rule } from './fixtures';

const accountNow: AccountStateNow = { categories: new Map(), defaultBlock: undefined, domains: new Map() };

describe('the draft of a rule', () => {
  const imported: ScheduleRule = rule({
    windows: [
      { start: '07:00', end: '08:00' },
      { start: '23:30', end: '01:00' },
    ],
    owns: [
      { kind: 'category', category: 'category_gaming', inside: true, outside: false },
      { kind: 'category', category: 'category_dating', inside: false, outside: true },
      { kind: 'domain', domain: 'games.example', inside: 'blocklist', outside: 'whitelist' },
    ],
  });

  it('saved unchanged gives the rule back, with the things the editor does not show', () => {
    const saved = ruleFromDraft(draftOf(imported, 0), [], accountNow);
    if (!saved.ok) throw new Error(saved.message);
    // The things' order carries no meaning.
    const { owns, ...rest } = saved.value.rule;
    expect({ ...rest, owns: undefined }).toEqual({ ...imported, owns: undefined });
    expect(owns).toHaveLength(imported.owns.length);
    expect(owns).toEqual(expect.arrayContaining(imported.owns));
  });

  it('a kept thing the user now blocks inside is owned once, as the editor shows it', () => {
    const draft = draftOf(imported, 0);
    // The account has Dating allowed now; the rule's state outside (blocked) stays.
    const saved = ruleFromDraft({ ...draft, categories: [...draft.categories, 'category_dating'] }, [], {
      ...accountNow,
      categories: new Map([['category_dating', false]]),
    });
    const dating = saved.ok
      ? saved.value.rule.owns.filter(
          (thing) => thing.kind === 'category' && thing.category === 'category_dating',
        )
      : [];
    expect(dating).toEqual([{ kind: 'category', category: 'category_dating', inside: true, outside: true }]);
  });
});

describe('limits', () => {
  it('names the most things a schedule may change', () => {
    const domains = Array.from({ length: 51 }, (_, index) => `site${index}.example`).join('\n');
    const saved = ruleFromDraft(
      { ...newDraft(0, undefined), name: 'Many', blocklistText: domains },
      [],
      accountNow,
    );
    expect(saved.ok ? '' : saved.message).toBe(
      'A schedule changes at most 50 things (categories, default block and domains).',
    );
  });
});
