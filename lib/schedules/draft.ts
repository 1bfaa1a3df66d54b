/**
 * The schedule editor's draft without Preact (docs/schedules.md, "The editor"): what the user
 * types, kept as typed until a save succeeds; the things it would own, each with its state outside
 * the windows; and the checks at save, which name the first bad window and every bad domain line.
 */
import { isPublicSuffix } from '@/lib/filtering/domain';
import { t } from '@/lib/i18n';
import { parseDomainLines, type RefusedLine } from '@/lib/lists/domain-lines';
import { randomId } from '@/lib/outbox/lease';
import { invalid, type Validation, valid } from '@/lib/validation';
import { findConflict, firstOverlappingWindows } from './conflicts';
import { type DomainPlace, type ThingValue, thingKey } from './model';
import {
  type OwnedThing,
  SCHEDULE_LIMITS,
  type ScheduleRule,
  type ScheduleWindow,
  TIME_PATTERN,
  WEEKDAYS,
  type Weekday,
} from './schema';

/** What the editor holds while the user types: plain strings, checked at save. */
export interface ScheduleDraft {
  /** Empty for a new rule. */
  id: string;
  name: string;
  profile: string | undefined;
  days: Weekday[];
  /** The first is the contract's "Starts at / Ends at"; at least one. */
  windows: ScheduleWindow[];
  /** Blocked inside the windows. */
  categories: string[];
  defaultBlock: boolean;
  /** Domains on the blocklist / whitelist inside the windows, as typed (one per line or comma-separated). */
  blocklistText: string;
  whitelistText: string;
  /**
   * The states outside the windows the rule had or the user chose, by `thingKey` without profile;
   * a thing not here takes the account's state now.
   */
  outside: Record<string, ThingValue>;
  /** Things the editor does not show (a category allowed inside, from an import): kept as they are. */
  kept: OwnedThing[];
  lead: string;
}

const FIRST_WINDOW: ScheduleWindow = { start: '18:00', end: '20:00' };

export function newDraft(lead: number, profile: string | undefined): ScheduleDraft {
  return {
    id: '',
    name: '',
    profile,
    days: [1, 2, 3, 4, 5],
    windows: [FIRST_WINDOW],
    categories: [],
    defaultBlock: false,
    blocklistText: '',
    whitelistText: '',
    outside: {},
    kept: [],
    lead: String(lead),
  };
}

const keyOf = (thing: OwnedThing) => thingKey(undefined, thing);

/** The draft of a stored rule: every window, thing and outside state it has. */
export function draftOf(rule: ScheduleRule, lead: number): ScheduleDraft {
  const shown = (thing: OwnedThing) => thing.kind === 'domain' || thing.inside;
  const domainsOn = (list: DomainPlace) =>
    rule.owns.flatMap((thing) => (thing.kind === 'domain' && thing.inside === list ? [thing.domain] : []));
  return {
    id: rule.id,
    name: rule.name,
    profile: rule.profile,
    days: [...rule.days],
    windows: rule.windows.length > 0 ? rule.windows.map((window) => ({ ...window })) : [FIRST_WINDOW],
    categories: rule.owns.flatMap((thing) =>
      thing.kind === 'category' && thing.inside ? [thing.category] : [],
    ),
    defaultBlock: rule.owns.some((thing) => thing.kind === 'default-block' && thing.inside),
    blocklistText: domainsOn('blocklist').join('\n'),
    whitelistText: domainsOn('whitelist').join('\n'),
    // Every thing's, so a kept thing the user then shows keeps its state outside too.
    outside: Object.fromEntries(rule.owns.map((thing) => [keyOf(thing), thing.outside])),
    kept: rule.owns.filter((thing) => !shown(thing)),
    lead: String(lead),
  };
}

/** The account's state of what a rule will own, read when the rule is made: its outside state. */
export interface AccountStateNow {
  categories: ReadonlyMap<string, boolean>;
  /** Unknown (the service cannot be asked): off. */
  defaultBlock: boolean | undefined;
  /** Where each domain is in the account's cached lists; one not there is on neither. */
  domains: ReadonlyMap<string, DomainPlace>;
}

/** Where each listed domain is, from the account's two lists (the whitelist wins a domain on both). */
export function domainPlaces(
  whitelist: readonly string[] | undefined,
  blocklist: readonly string[] | undefined,
): Map<string, DomainPlace> {
  const places = new Map<string, DomainPlace>();
  for (const domain of blocklist ?? []) places.set(domain, 'blocklist');
  for (const domain of whitelist ?? []) places.set(domain, 'whitelist');
  return places;
}

interface DraftDomains {
  /** Domain → its list inside the windows, for the domains that may be saved. */
  inside: Map<string, Exclude<DomainPlace, 'none'>>;
  refused: RefusedLine[];
  publicSuffixes: string[];
  onBoth: string[];
}

/** The two domain fields read with the lists' own parser (lib/lists/domain-lines.ts). */
function draftDomains(draft: ScheduleDraft): DraftDomains {
  const blocklist = parseDomainLines(draft.blocklistText);
  const whitelist = parseDomainLines(draft.whitelistText);
  const inside = new Map<string, Exclude<DomainPlace, 'none'>>();
  const publicSuffixes: string[] = [];
  const onBoth: string[] = [];
  const take = (domains: readonly string[], list: Exclude<DomainPlace, 'none'>) => {
    for (const domain of domains) {
      // A public suffix covers the sites of many owners: no list entry is offered for one
      // (docs/service-api.md, "Which domain one click adds").
      if (isPublicSuffix(domain)) {
        if (!publicSuffixes.includes(domain)) publicSuffixes.push(domain);
      } else if (inside.has(domain) && inside.get(domain) !== list) {
        onBoth.push(domain);
        inside.delete(domain);
      } else if (!onBoth.includes(domain)) inside.set(domain, list);
    }
  };
  take(blocklist.domains, 'blocklist');
  take(whitelist.domains, 'whitelist');
  return { inside, refused: [...blocklist.refused, ...whitelist.refused], publicSuffixes, onBoth };
}

/**
 * The things the draft owns, each with its state outside the windows: the one the rule had or the
 * user chose, else the account's state now. Domains that cannot be saved are left out.
 */
export function draftThings(draft: ScheduleDraft, now: AccountStateNow): OwnedThing[] {
  const things: OwnedThing[] = [];
  // A state chosen of the thing's kind (a list for a domain, yes or no for the others), else `account`.
  const add = (thing: OwnedThing, account: ThingValue) => {
    const chosen = draft.outside[keyOf(thing)];
    things.push({ ...thing, outside: typeof chosen === typeof account ? chosen : account } as OwnedThing);
  };
  for (const category of draft.categories)
    add({ kind: 'category', category, inside: true, outside: false }, now.categories.get(category) ?? false);
  if (draft.defaultBlock)
    add({ kind: 'default-block', inside: true, outside: false }, now.defaultBlock ?? false);
  for (const [domain, inside] of draftDomains(draft).inside)
    add({ kind: 'domain', domain, inside, outside: 'none' }, now.domains.get(domain) ?? 'none');
  const shownKeys = new Set(things.map(keyOf));
  things.push(...draft.kept.filter((thing) => !shownKeys.has(keyOf(thing))));
  return things;
}

/** The draft with a thing's state outside the windows set by the user. */
export function withOutside(draft: ScheduleDraft, thing: OwnedThing, outside: ThingValue): ScheduleDraft {
  return { ...draft, outside: { ...draft.outside, [keyOf(thing)]: outside } };
}

/** "window 2" in messages; the first window is the contract's plain "Starts at / Ends at". */
const windowWords = (index: number) => t('schedules.windowNumber', { number: index + 1 });

function windowProblem(draft: ScheduleDraft): string | null {
  if (draft.windows.length === 0) return t('schedules.badTime');
  if (draft.windows.length > SCHEDULE_LIMITS.windowsPerRule)
    return t('schedules.tooManyWindows', { count: SCHEDULE_LIMITS.windowsPerRule });
  // One window keeps the plain message; among several, the message names the window.
  const named = (index: number, problem: string) =>
    draft.windows.length === 1 ? problem : t('schedules.windowProblem', { number: index + 1, problem });
  for (const [index, window] of draft.windows.entries()) {
    if (!TIME_PATTERN.test(window.start) || !TIME_PATTERN.test(window.end))
      return named(index, t('schedules.badTime'));
    if (window.start === window.end) return named(index, t('schedules.sameTimes'));
  }
  const overlap = firstOverlappingWindows(draft.days, draft.windows);
  if (overlap)
    return t('schedules.windowsOverlap', { first: windowWords(overlap[0]), second: windowWords(overlap[1]) });
  return null;
}

function domainProblem(draft: ScheduleDraft): string | null {
  const { refused, publicSuffixes, onBoth } = draftDomains(draft);
  const problems: string[] = [];
  if (refused.length > 0)
    problems.push(
      t('schedules.badDomains', {
        lines: refused.map((line) => `“${line.line}” (${line.message.replace(/\.$/, '')})`).join(', '),
      }),
    );
  if (publicSuffixes.length > 0)
    problems.push(t('schedules.publicSuffixes', { domains: publicSuffixes.join(', ') }));
  if (onBoth.length > 0) problems.push(t('schedules.domainsOnBoth', { domains: onBoth.join(', ') }));
  return problems.length > 0 ? problems.join(' ') : null;
}

/**
 * The rule a draft makes, checked: a name, a day, valid windows that do not overlap, valid domains,
 * something owned, a lead in range, and no conflict with the account's other rules (naming both).
 */
export function ruleFromDraft(
  draft: ScheduleDraft,
  existing: readonly ScheduleRule[],
  now: AccountStateNow,
): Validation<{ rule: ScheduleRule; lead: number }> {
  const name = draft.name.trim();
  if (name === '' || name.length > SCHEDULE_LIMITS.nameLength) return invalid(t('schedules.nameMissing'));
  if (draft.days.length === 0) return invalid(t('schedules.noDays'));
  const badWindow = windowProblem(draft);
  if (badWindow) return invalid(badWindow);
  const badDomain = domainProblem(draft);
  if (badDomain) return invalid(badDomain);
  const owns = draftThings(draft, now);
  if (owns.length === 0) return invalid(t('schedules.nothingOwned'));
  if (owns.length > SCHEDULE_LIMITS.thingsPerRule)
    return invalid(t('schedules.tooManyThings', { count: SCHEDULE_LIMITS.thingsPerRule }));
  const lead = Number(draft.lead.trim());
  if (
    draft.lead.trim() === '' ||
    !Number.isInteger(lead) ||
    lead < 0 ||
    lead > SCHEDULE_LIMITS.leadMinutesMax
  )
    return invalid(t('schedules.badLead'));
  const rule: ScheduleRule = {
    id: draft.id || randomId(),
    name,
    ...(draft.profile === undefined ? {} : { profile: draft.profile }),
    days: WEEKDAYS.filter((day) => draft.days.includes(day)),
    windows: draft.windows.map(({ start, end }) => ({ start, end })),
    owns,
  };
  const conflict = findConflict(rule, existing);
  if (conflict) {
    const words = { rule: rule.name, other: conflict.other.name };
    return invalid(
      t(conflict.why === 'same-time' ? 'schedules.conflict' : 'schedules.conflictOutside', words),
    );
  }
  return valid({ rule, lead });
}

/** A choice of a thing's state outside the windows, as the editor offers it. */
export interface OutsideChoice {
  value: ThingValue;
  label: string;
}

/** What a thing may be outside the windows: allowed/blocked, off/on, or which list. */
export function outsideChoices(thing: OwnedThing): OutsideChoice[] {
  switch (thing.kind) {
    case 'category':
      return [
        { value: false, label: t('schedules.outsideAllowed') },
        { value: true, label: t('schedules.outsideBlocked') },
      ];
    case 'default-block':
      return [
        { value: false, label: t('schedules.outsideOff') },
        { value: true, label: t('schedules.outsideOn') },
      ];
    case 'domain':
      return [
        { value: 'none', label: t('schedules.outsideNone') },
        { value: 'blocklist', label: t('schedules.outsideBlocklist') },
        { value: 'whitelist', label: t('schedules.outsideWhitelist') },
      ];
  }
}
