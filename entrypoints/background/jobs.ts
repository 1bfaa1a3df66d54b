/**
 * The worker's jobs, wired to the browser. Each reads what it needs from storage when it runs:
 * nothing is kept in worker globals, because the worker can be stopped between any two events.
 */
import { browser } from 'wxt/browser';
import { forgetAccount } from '@/lib/accounts/forget';
import { rememberDeliveredSetting } from '@/lib/accounts/remembered';
import { accountValue, readAccounts } from '@/lib/accounts/store';
import { applyBadge, type BadgeState, computeBadge, notify } from '@/lib/badge';
import { diagnosisActive } from '@/lib/diagnosis/permissions';
import { clearAllRecords, recordsOfTabs, tabsWithRecords } from '@/lib/diagnosis/records';
import {
  expireTemporaryAllows,
  forgetTemporaryAllowFor,
  scheduleExpiry,
  startTemporaryAllow,
  type TemporaryAllowDeps,
  type TemporaryAllowRequest,
} from '@/lib/diagnosis/temporary-allow';
import {
  announceEndedUnbreaks,
  type CompletedRequest,
  noteLoad,
  reviewUnbreak,
  startUnbreak,
  type UnbreakDeps,
  type UnbreakRequest,
} from '@/lib/diagnosis/unbreak';
import { registrableDomain } from '@/lib/filtering/domain';
import {
  ensureDailyAlarm,
  resumeRollback,
  rollbackAlarmOf,
  snapshotEveryAccount,
} from '@/lib/history/service';
import { t } from '@/lib/i18n';
import { readConfiguredAccounts, readCurrentAccount } from '@/lib/identity/current';
import { buildMenuItems, readMenuInput, rebuildMenus, refreshProfilesCache } from '@/lib/menus';
import type {
  ChangeOutcome,
  ListChange,
  OtherAccountChangesResponse,
  QueuedChange,
  RemoveAccountResponse,
  SeveralOutcomes,
  TemporaryAllowResponse,
  UnbreakResponse,
} from '@/lib/messaging/protocol';
import { isListChange } from '@/lib/messaging/queued-change';
import {
  type RegistrationTrigger,
  registerOnce,
  registrationAlarmOf,
  registrationIsFailing,
  registrationLeaseOf,
  registrationRetryAlarmOf,
  syncRegistrationAlarms,
} from '@/lib/network';
import {
  deliverPending,
  deliverPendingWithin,
  discardForAccount,
  enqueueChange,
  keepForAccount,
  type OutboxDeps,
  outboxAlarmOf,
  outboxLeaseOf,
  submitChange,
} from '@/lib/outbox';
import { randomId } from '@/lib/outbox/lease';
import { changeSettingsKeepingHostPermissions } from '@/lib/permissions/host-permission';
import { applyPolicy } from '@/lib/policy/apply';
import { readCurrentPolicy } from '@/lib/policy/current';
import { profileGroupsItem, profilesOfGroup } from '@/lib/profile-groups/groups';
import { summaryOf } from '@/lib/profile-groups/preview';
import { submitToProfiles as submitChangeToProfiles } from '@/lib/profile-groups/several';
import { keepMenuChange } from '@/lib/schedules/manual';
import { reconcileSchedules } from '@/lib/schedules/reconcile';
import {
  addedTldsItem,
  defaultBlockItem,
  dynamicIpSettingsItem,
  failedHostsTabsItem,
  outboxItem,
  profilesCacheItem,
  type RegistrationOutcome,
  registrationOutcomeItem,
  type SettledChange,
  storedAccountIdentity,
} from '@/lib/settings/storage';

/** The active account and its client, from one reading of the settings. */
const getAccount = () => readCurrentAccount();
/** Every account of this browser, each with its own client. */
const getAccounts = () => readConfiguredAccounts();

function changeNotificationId(change: QueuedChange): string {
  const target = isListChange(change)
    ? `${change.list}:${change.profile ?? ''}:${change.domain}`
    : `${change.profile ?? ''}:${change.op === 'set-category' ? change.category : ''}`;
  return `change:${change.op}:${target}`;
}

function outcomeTitle(state: ChangeOutcome['state']): string {
  if (state === 'delivered') return t('worker.done');
  if (state === 'pending') return t('worker.waiting');
  return t('worker.notDone');
}

/** A change settled after its sender was told "pending": the user hears the end of it. */
async function reportLateOutcome(settled: SettledChange, afterRetry: boolean): Promise<void> {
  if (!afterRetry) return;
  await notify(
    browser.notifications,
    changeNotificationId(settled.change),
    outcomeTitle(settled.state),
    settled.message,
  );
}

/** Every change that left the outbox: a setting is remembered where the service cannot tell it. */
async function followSettledChange(settled: SettledChange, afterRetry: boolean): Promise<void> {
  await rememberDeliveredSetting(settled, await getAccounts()).catch(() => undefined);
  await reportLateOutcome(settled, afterRetry);
}

const outboxDeps: OutboxDeps = {
  getAccount,
  getAccounts,
  alarms: browser.alarms,
  onSettled: followSettledChange,
};

export function deliverOutbox(force: boolean) {
  return deliverPending(outboxDeps, { force });
}

/** Schedules: what must hold now, sent where it differs (lib/schedules/reconcile.ts). */
export function reconcileSchedulesNow() {
  return reconcileSchedules({
    getAccounts,
    alarms: browser.alarms,
    deliverOutbox: (account) => deliverPending(outboxDeps, { force: true, only: account }),
  });
}

/** "Retry now": answers within the bound a click is answered in; the delivery goes on. */
export async function retryOutboxNow() {
  return { remaining: await deliverPendingWithin(outboxDeps) };
}

/**
 * The user's decision about changes waiting for an account that is none of this browser's
 * (options page). Changes of an account of this browser are not touched this way: they are
 * sent, or shown as pending.
 */
export async function otherAccountChanges(
  action: 'keep' | 'discard',
  account: string,
  ids: readonly string[],
): Promise<OtherAccountChangesResponse> {
  if ((await getAccounts()).some((configured) => configured.identity.id === account)) return { count: 0 };
  const count =
    action === 'keep' ? await keepForAccount(account, ids) : await discardForAccount(account, ids);
  return { count };
}

/** A change to several profiles (popup, menu, options lists): one outcome per profile. */
export async function submitToProfiles(
  change: ListChange,
  profiles: readonly string[],
): Promise<SeveralOutcomes> {
  for (const profile of profiles) await forgetTemporaryAllowFor(temporaryAllowDeps, { ...change, profile });
  const byHand = change.source === 'menu' || change.source === 'shortcut';
  const kept = byHand ? await keepScheduledDomain(change, profiles) : null;
  const answer = await submitChangeToProfiles(change, profiles, { ...outboxDeps, newGroupId: randomId });
  if (byHand) {
    const summary = summaryOf(answer.outcomes);
    const text = await withKept(kept, summary.state === 'failed', summary.text);
    await notify(browser.notifications, `several:${Date.now()}`, outcomeTitle(summary.state), text);
  }
  return answer;
}

/**
 * The profiles of the saved group `id` that the account still lists (the menu's cached profiles);
 * none when the group is gone (deleted since the menu was built).
 */
export async function profilesOfSavedGroup(id: string): Promise<string[]> {
  const [groups, cache, account] = await Promise.all([
    profileGroupsItem.getValue(),
    profilesCacheItem.getValue(),
    storedAccountIdentity(),
  ]);
  const group = groups.find((candidate) => candidate.id === id);
  if (!group) return [];
  return profilesOfGroup(group, cache && cache.account === account.id ? cache.profiles : null).present;
}

/** Popup, menu and shortcut changes all come through here. */
export async function submit(change: ListChange): Promise<ChangeOutcome> {
  // The user decided about a domain allowed for a while: its expiry must not undo that.
  await forgetTemporaryAllowFor(temporaryAllowDeps, change);
  const byHand = change.source === 'menu' || change.source === 'shortcut';
  const kept = byHand ? await keepScheduledDomain(change, [change.profile]) : null;
  const outcome = await submitChange(change, outboxDeps);
  // The popup shows its own outcome; the menu and shortcuts have no page to show it in.
  if (byHand) {
    await notify(
      browser.notifications,
      changeNotificationId(change),
      outcomeTitle(outcome.state),
      await withKept(kept, outcome.state === 'failed', outcome.message),
    );
  }
  return outcome;
}

/**
 * A menu or shortcut change to a domain a schedule owns is kept until the schedule's next edge
 * (docs/schedules.md, "Manual changes"); null when none owns it. A schedule that cannot be read
 * never holds the change back.
 */
async function keepScheduledDomain(change: ListChange, profiles: readonly (string | undefined)[]) {
  try {
    const { activeId } = await readAccounts();
    return await keepMenuChange(activeId, profiles, change.domain, Date.now());
  } catch {
    return null;
  }
}

/** The notification's text, with what was kept; a refused change keeps nothing. */
async function withKept(
  kept: Awaited<ReturnType<typeof keepScheduledDomain>>,
  failed: boolean,
  message: string,
): Promise<string> {
  if (kept === null) return message;
  if (failed) {
    await kept.undo().catch(() => undefined);
    return message;
  }
  return `${message} ${kept.sentence}`;
}

/** Removes an account and everything of it (lib/accounts/forget.ts); the timers follow. */
export async function removeAccount(accountId: string): Promise<RemoveAccountResponse> {
  // Its service's and lookups' host permissions are given back unless another account needs them.
  const outcome = await changeSettingsKeepingHostPermissions({ permissions: browser.permissions }, () =>
    forgetAccount(accountId, {
      alarms: browser.alarms,
      alarmsOf: (id, identity) => [
        registrationAlarmOf(id),
        registrationRetryAlarmOf(id),
        outboxAlarmOf(identity),
        rollbackAlarmOf(identity),
      ],
      leasesOf: (id, identity) => [registrationLeaseOf(id), outboxLeaseOf(identity)],
    }),
  );
  if (outcome.removed) await scheduleExpiry(temporaryAllowDeps);
  return outcome;
}

/** Registers the account `accountId` (the active one when absent); null when nothing ran. */
export function register(
  trigger: RegistrationTrigger,
  accountId?: string,
): Promise<RegistrationOutcome | null> {
  return registerOnce(
    { getAccount, getAccounts, fetch: globalThis.fetch.bind(globalThis), alarms: browser.alarms },
    trigger,
    accountId,
  );
}

/** Every account's registration alarms in line with its settings (lib/network). */
export async function syncRegistrationAlarm(): Promise<void> {
  const { accounts } = await readAccounts();
  await syncRegistrationAlarms(browser.alarms, accounts);
}

/** The badge is the active account's: its registration and its waiting changes only. */
async function badgeBase(): Promise<BadgeState> {
  const [settings, outcome, outbox, account] = await Promise.all([
    dynamicIpSettingsItem.getValue(),
    registrationOutcomeItem.getValue(),
    outboxItem.getValue(),
    getAccount(),
  ]);
  const failing = settings.enabled && registrationIsFailing(outcome);
  return {
    registrationFailing: failing,
    ...(failing && outcome ? { registrationMessage: outcome.message } : {}),
    pendingChanges: outbox.filter((entry) => entry.account === account.identity.id).length,
  };
}

/**
 * Gives each of `tabIds` its own badge from its stored failed hosts (page diagnosis), or the
 * global badge's values when diagnosis is off or the tab has no record.
 */
export async function refreshTabBadges(tabIds: readonly number[], base?: BadgeState): Promise<void> {
  if (tabIds.length === 0) return;
  const [state, records, active] = await Promise.all([
    base ?? badgeBase(),
    recordsOfTabs(tabIds),
    diagnosisActive(browser.permissions),
  ]);
  for (const [index, tabId] of tabIds.entries()) {
    const failedHosts = active ? (records[index]?.hosts.length ?? 0) : 0;
    try {
      await applyBadge(browser.action, computeBadge({ ...state, failedHosts }), tabId);
    } catch {
      // The tab closed meanwhile: its badge went with it.
    }
  }
}

export async function refreshBadge(): Promise<void> {
  const base = await badgeBase();
  await applyBadge(browser.action, computeBadge(base));
  // A tab's own badge overrides the global one, so those follow every change of the global state.
  await refreshTabBadges(await tabsWithRecords(), base);
}

/** Forgets every tab's failed hosts and gives those tabs the global badge back. */
export async function clearDiagnosis(): Promise<void> {
  await refreshTabBadges(await clearAllRecords());
}

/** Without storage.session, tab ids of an earlier browser session would name other tabs now. */
export async function forgetRecordsOfEarlierSession(): Promise<void> {
  if (failedHostsTabsItem.key.startsWith('local:')) await clearDiagnosis();
}

const temporaryAllowDeps: TemporaryAllowDeps = {
  getAccount,
  getAccounts,
  submit: (change) => submitChange(change, outboxDeps),
  enqueue: (change, account) => enqueueChange(change, account),
  deliver: () => deliverOutbox(true),
  alarms: browser.alarms,
  notify: (title, message) => notify(browser.notifications, `temporary-allow:${Date.now()}`, title, message),
};

export function temporaryAllow(request: TemporaryAllowRequest): Promise<TemporaryAllowResponse> {
  return startTemporaryAllow(temporaryAllowDeps, request);
}

export function expireTemporaryAllowsNow() {
  return expireTemporaryAllows(temporaryAllowDeps);
}

const unbreakDeps: UnbreakDeps = {
  getAccount,
  allowForAWhile: (request) => startTemporaryAllow(temporaryAllowDeps, request),
  submit,
  registrable: registrableDomain,
  notify: (title, message) => notify(browser.notifications, `unbreak:${Date.now()}`, title, message),
};

export function unbreak(request: UnbreakRequest): Promise<UnbreakResponse> {
  return startUnbreak(unbreakDeps, request);
}

export function unbreakReview(request: { id: string; keep: boolean }): Promise<ChangeOutcome> {
  return reviewUnbreak(unbreakDeps, request);
}

/** A request finished (webRequest.onCompleted): counts for a running unbreak of its site. */
export function noteUnbreakLoad(request: CompletedRequest): Promise<void> {
  return noteLoad(unbreakDeps, request);
}

/** After allows ended: the user hears once that an unbreak's review waits in the popup. */
export function announceUnbreakReviews() {
  return announceEndedUnbreaks(unbreakDeps);
}

export function rebuildContextMenu(): Promise<void> {
  // A policy that closes the menu leaves it empty (docs/managed-deployment.md); one that arrives
  // while the menu is being built asks for a rebuild of its own, which reads it.
  const readItems = async () =>
    (await currentPolicy()).scope.menuChanges ? buildMenuItems(await readMenuInput()) : [];
  return rebuildMenus(browser.contextMenus, readItems, () => browser.runtime.lastError);
}

/** Best effort: the menu falls back to the last chosen profile until a list succeeds. */
export async function refreshProfiles(): Promise<void> {
  const account = await getAccount();
  if (!account.client) return;
  try {
    await refreshProfilesCache(account);
  } catch {
    // Offline or a bad key: the cached profiles stay; the options page reports connection problems.
  }
}

/** The administrator's policy and the accounts it set up (lib/policy). */
export const currentPolicy = () => readCurrentPolicy(browser.storage.managed);

/** Puts the accounts and page diagnosis in line with the administrator's policy (lib/policy/apply.ts). */
export const applyManagedPolicy = () => applyPolicy({ managed: browser.storage.managed, removeAccount });
/** History (lib/history): the daily alarm, created only when missing. */
export const ensureHistoryAlarm = () => ensureDailyAlarm(browser.alarms);

/** The daily snapshot of every account. */
export async function snapshotAccounts(): Promise<void> {
  const [configured, state] = await Promise.all([readConfiguredAccounts(), readAccounts()]);
  await snapshotEveryAccount(configured, async (accountId) => {
    const stored = state.accounts.find((account) => account.id === accountId);
    return {
      tlds: stored ? accountValue(stored, addedTldsItem) : {},
      defaultBlock: stored ? accountValue(stored, defaultBlockItem) : {},
    };
  });
}

/** A rollback's alarm: sent on with its own account's client, whichever account is active. */
export async function resumeRollbackOf(identity: string): Promise<void> {
  const account = (await readConfiguredAccounts()).find((candidate) => candidate.identity.id === identity);
  if (account?.client) await resumeRollback(identity, account.client, browser.alarms);
}
