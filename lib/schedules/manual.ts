/**
 * A change made by hand to something a schedule owns (docs/schedules.md, "Manual changes"). The
 * next check would quietly put the schedule's state back, so the options page and the popup say
 * which schedule owns it and offer to keep the change until the schedule's next edge (the rule
 * leaves its things alone until then) or to pause the rule until a chosen time; the menu and the
 * shortcuts, which cannot ask, keep it until the next edge and say so.
 */

import { canonicalHost } from '@/lib/filtering/domain-index';
import { t } from '@/lib/i18n';
import type { RuleStatus } from './desired';
import { updateAccountSchedules } from './edit';
import { activeSchedules, formatInstant, pauseUntil, statusesOf } from './options';
import type { AccountSchedules, OwnedThing, ScheduleOverride } from './schema';
import { schedulesItem } from './store';

/**
 * What a page, the menu or a shortcut changes by hand that a rule may own: a category, default
 * block, or a domain's place on the whitelist or blocklist (added to or removed from either).
 */
export type ManualTarget =
  | { kind: 'category'; category: string }
  | { kind: 'default-block' }
  | { kind: 'domain'; domain: string };

function owns(thing: OwnedThing, target: ManualTarget): boolean {
  switch (target.kind) {
    case 'category':
      return thing.kind === 'category' && thing.category === target.category;
    case 'default-block':
      return thing.kind === 'default-block';
    case 'domain':
      // As the lists hold them: a letter's case or a final dot makes no other domain.
      return thing.kind === 'domain' && canonicalHost(thing.domain) === canonicalHost(target.domain);
  }
}

/**
 * The rule that owns `target` for `profile` (undefined: Form B's whole account) and is not left
 * alone now, or null. Rules never overlap on one thing (./conflicts.ts), so there is one at most.
 */
export function ruleOwning(
  schedules: AccountSchedules,
  profile: string | undefined,
  target: ManualTarget,
  now: number,
  timeZone?: string,
): RuleStatus | null {
  return (
    statusesOf(schedules, now, timeZone).find(
      (status) =>
        !status.released &&
        status.rule.profile === profile &&
        status.rule.owns.some((thing) => owns(thing, target)),
    ) ?? null
  );
}

/** What `ruleOwning` answers for the active account as stored now, with the account's id. */
export async function activeRuleOwning(
  profile: string | undefined,
  target: ManualTarget,
  now: number,
): Promise<{ accountId: string; status: RuleStatus } | null> {
  const { accountId, schedules } = await activeSchedules.getValue();
  const status = ruleOwning(schedules, profile, target, now);
  return status && { accountId, status };
}

/** A rule that owns some of the domains just changed, with those domains. */
export interface DomainsOwned {
  accountId: string;
  status: RuleStatus;
  domains: string[];
  /** When the change was made: a keep of it is stored no earlier (`withdrawKeep`). */
  changedAt: number;
}

/**
 * The rules of `accountId` that own any of `domains` for `profile` now, each with the domains it
 * owns, in the order of `domains`: one notice (or one kept change) per rule, however many domains
 * a list's change added.
 */
export async function rulesOwningDomains(
  accountId: string,
  profile: string | undefined,
  domains: readonly string[],
  now: number,
): Promise<DomainsOwned[]> {
  const schedules = (await schedulesItem.getValue())[accountId];
  if (schedules === undefined || schedules.rules.length === 0) return [];
  const byRule = new Map<string, DomainsOwned>();
  for (const domain of domains) {
    const status = ruleOwning(schedules, profile, { kind: 'domain', domain }, now);
    if (status === null) continue;
    const owned = byRule.get(status.rule.id);
    if (owned) owned.domains.push(domain);
    else byRule.set(status.rule.id, { accountId, status, domains: [domain], changedAt: now });
  }
  return [...byRule.values()];
}

/** What `rulesOwningDomains` answers for the active account (the options page's lists). */
export async function activeRulesOwningDomains(
  profile: string | undefined,
  domains: readonly string[],
  now: number,
): Promise<DomainsOwned[]> {
  const { accountId } = await activeSchedules.getValue();
  return rulesOwningDomains(accountId, profile, domains, now);
}

/** "Keep until …": the rule leaves its things alone until its next edge. */
export async function keepUntilNextEdge(accountId: string, status: RuleStatus, now: number): Promise<void> {
  if (status.nextEdgeAt !== null) await pauseUntil(accountId, status.rule.id, now, status.nextEdgeAt);
}

/**
 * Takes back the keep of a change made at `changedAt` (its Undo, or its refusal): the rule owns
 * its things again at once, as it did before the change. A pause the user chose stays.
 */
export async function withdrawKeep(accountId: string, status: RuleStatus, changedAt: number): Promise<void> {
  const isKeep = (override: ScheduleOverride) =>
    override.rule === status.rule.id &&
    override.kind === 'release' &&
    override.until === status.nextEdgeAt &&
    override.from >= changedAt;
  await updateAccountSchedules(accountId, (current) =>
    current?.overrides.some(isKeep)
      ? { ...current, overrides: current.overrides.filter((override) => !isKeep(override)) }
      : null,
  );
}

/**
 * A domain put on a list from the right-click menu or a shortcut, which a schedule owns: there is
 * no page to ask in, so the change is kept until each owning rule's next edge (docs/schedules.md,
 * "Manual changes"), stored before the change is sent so that no check in between puts it back.
 * `sentence` is what the notification adds; `undo` takes the kept state back when the change was
 * refused. Null when no schedule owns the domain for any of `profiles`.
 */
export async function keepMenuChange(
  accountId: string,
  profiles: readonly (string | undefined)[],
  domain: string,
  now: number,
): Promise<{ sentence: string; undo: () => Promise<void> } | null> {
  const owners = new Map<string, RuleStatus>();
  for (const profile of profiles) {
    for (const { status } of await rulesOwningDomains(accountId, profile, [domain], now)) {
      owners.set(status.rule.id, status);
    }
  }
  if (owners.size === 0) return null;
  const kept: RuleStatus[] = [];
  const sentences: string[] = [];
  for (const status of owners.values()) {
    if (status.nextEdgeAt === null) {
      sentences.push(t('schedules.menuOwned', { rule: status.rule.name }));
      continue;
    }
    await keepUntilNextEdge(accountId, status, now);
    kept.push(status);
    sentences.push(
      t('schedules.menuKept', { rule: status.rule.name, time: formatInstant(status.nextEdgeAt, now) }),
    );
  }
  const undo = async () => {
    for (const status of kept) await withdrawKeep(accountId, status, now);
  };
  return { sentence: sentences.join(' '), undo };
}
