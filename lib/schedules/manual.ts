/**
 * A change made by hand to something a schedule owns (docs/schedules.md, "Manual changes"). The
 * next check would quietly put the schedule's state back, so the page says which schedule owns it
 * and offers to keep the change until the schedule's next edge (the rule leaves its things alone
 * until then) or to pause the rule until a chosen time.
 */
import type { RuleStatus } from './desired';
import type { OwnedThing } from './model';
import { activeSchedules, pauseUntil, statusesOf } from './options';
import type { AccountSchedules } from './store';

/** What a page changes by hand that a rule may own. */
export type ManualTarget = { kind: 'category'; category: string } | { kind: 'default-block' };

const owns = (thing: OwnedThing, target: ManualTarget) =>
  thing.kind === target.kind &&
  (target.kind !== 'category' || (thing.kind === 'category' && thing.category === target.category));

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

/** "Keep until …": the rule leaves its things alone until its next edge. */
export async function keepUntilNextEdge(accountId: string, status: RuleStatus, now: number): Promise<void> {
  if (status.nextEdgeAt !== null) await pauseUntil(accountId, status.rule.id, now, status.nextEdgeAt);
}
