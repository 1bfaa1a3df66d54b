/**
 * Copying a profile (Form A; docs/several-profiles.md, "Copying a profile"): into a new profile,
 * or one profile's settings onto another. What is copied: the blocked categories, the whitelist,
 * the blocklist, and the default block where this browser knows it (the API cannot read it back:
 * lib/settings/storage.ts `defaultBlockItem`). Networks and TLD blocks are not copied: a network
 * belongs to one profile, and a TLD block cannot be undone through the API.
 *
 * `planCopy` is the diff the user confirms; `applyCopy` sends it step by step and answers one
 * outcome per step, so a copy that stopped halfway says exactly what was done and what was not,
 * and a Retry sends the failed steps only.
 */
import { isApiError } from '@/lib/api/errors';
import type { DnsFilterApi, DomainListKind } from '@/lib/api/types';

/** A profile's settings as the service lists them, and the default block as this browser knows it. */
export interface ProfileSettings {
  blockedCategories: readonly string[];
  /** Every category the service lists for the profile (blocked or not). */
  categories: readonly string[];
  whitelist: readonly string[];
  blocklist: readonly string[];
  /** Null: set elsewhere or never, so not known here. */
  defaultBlock: boolean | null;
}

export type CopyStep =
  | { kind: 'add-profile'; profile: string }
  | { kind: 'category'; category: string; blocked: boolean }
  | { kind: 'list'; op: 'add' | 'remove'; list: DomainListKind; domain: string }
  | { kind: 'default-block'; enabled: boolean };

export interface CopyPlan {
  from: string;
  to: string;
  steps: CopyStep[];
  /** The default block of the source is not known here: the target keeps its own. */
  defaultBlockUnknown: boolean;
}

/** Reads what `planCopy` compares, with the default block from this browser's records. */
export async function readProfileSettings(
  client: DnsFilterApi,
  profile: string,
  knownDefaultBlock: boolean | null,
): Promise<ProfileSettings> {
  const [categories, whitelist, blocklist] = await Promise.all([
    client.listCategories(profile),
    client.listDomains('whitelist', profile),
    client.listDomains('blocklist', profile),
  ]);
  return {
    categories: categories.map((category) => category.id),
    blockedCategories: categories.filter((category) => category.blocked).map((category) => category.id),
    whitelist,
    blocklist,
    defaultBlock: knownDefaultBlock,
  };
}

const missingFrom = (from: readonly string[], to: readonly string[]) => {
  const present = new Set(to);
  return from.filter((entry) => !present.has(entry));
};

/**
 * The steps that make `to` like `from`: `target` null makes a new profile first (its settings are
 * the service's defaults, which list as nothing blocked and empty lists). Removals come before
 * additions, so a domain that moves from one list to the other is never on both; the default
 * block comes last, so nothing is blocked by it before the whitelist is in place.
 */
export function planCopy(
  from: string,
  source: ProfileSettings,
  to: string,
  target: ProfileSettings | null,
): CopyPlan {
  const steps: CopyStep[] = [];
  const current: ProfileSettings = target ?? {
    categories: source.categories,
    blockedCategories: [],
    whitelist: [],
    blocklist: [],
    defaultBlock: false,
  };
  if (target === null) steps.push({ kind: 'add-profile', profile: to });
  for (const category of missingFrom(source.blockedCategories, current.blockedCategories))
    steps.push({ kind: 'category', category, blocked: true });
  for (const category of missingFrom(current.blockedCategories, source.blockedCategories))
    steps.push({ kind: 'category', category, blocked: false });
  for (const list of ['whitelist', 'blocklist'] as const)
    for (const domain of missingFrom(current[list], source[list]))
      steps.push({ kind: 'list', op: 'remove', list, domain });
  for (const list of ['whitelist', 'blocklist'] as const)
    for (const domain of missingFrom(source[list], current[list]))
      steps.push({ kind: 'list', op: 'add', list, domain });
  if (source.defaultBlock !== null && source.defaultBlock !== current.defaultBlock)
    steps.push({ kind: 'default-block', enabled: source.defaultBlock });
  return { from, to, steps, defaultBlockUnknown: source.defaultBlock === null };
}

/** How many steps of each kind: the confirmation says these numbers. */
export function countSteps(steps: readonly CopyStep[]) {
  return {
    categories: steps.filter((step) => step.kind === 'category').length,
    additions: steps.filter((step) => step.kind === 'list' && step.op === 'add').length,
    removals: steps.filter((step) => step.kind === 'list' && step.op === 'remove').length,
    defaultBlock: steps.some((step) => step.kind === 'default-block'),
  };
}

export interface StepOutcome {
  step: CopyStep;
  ok: boolean;
  /** The service's reason when it refused; empty when done. */
  message: string;
}

/**
 * Sends the steps in order, one at a time (the service is not flooded, and the order keeps a
 * moving domain off both lists), each to `plan.to`. When the new profile cannot be made, nothing
 * else is sent. `onProgress` hears how many steps are done. Never rejects.
 */
export async function applyCopy(
  client: DnsFilterApi,
  plan: Pick<CopyPlan, 'to' | 'steps'>,
  onProgress: (done: number, total: number) => void = () => undefined,
): Promise<StepOutcome[]> {
  const outcomes: StepOutcome[] = [];
  for (const step of plan.steps) {
    let outcome: StepOutcome;
    try {
      if (step.kind === 'add-profile') await client.addProfile(step.profile);
      else if (step.kind === 'category')
        await client.setCategoryBlocked(step.category, step.blocked, plan.to);
      else if (step.kind === 'default-block') await client.setDefaultBlock(step.enabled, plan.to);
      else if (step.op === 'add') await client.addDomain(step.list, step.domain, plan.to);
      else await client.deleteDomain(step.list, step.domain, plan.to);
      outcome = { step, ok: true, message: '' };
    } catch (error) {
      outcome = { step, ok: false, message: isApiError(error) ? error.message : String(error) };
    }
    outcomes.push(outcome);
    onProgress(outcomes.length, plan.steps.length);
    if (!outcome.ok && step.kind === 'add-profile') break;
  }
  return outcomes;
}
