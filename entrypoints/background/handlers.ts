/**
 * What the worker does for each browser event. `index.ts` registers these at the top level.
 */

import { browser } from 'wxt/browser';
import { readAccountNames } from '@/lib/accounts/store';
import { capabilitiesOf } from '@/lib/api/forms';
import { notify } from '@/lib/badge';
import { TEMPORARY_ALLOW_ALARM } from '@/lib/diagnosis/temporary-allow';
import { isPublicSuffix } from '@/lib/filtering/domain';
import { hostnameFromUrl } from '@/lib/filtering/hostname';
import { HISTORY_DAILY_ALARM, rollbackAlarmAccount } from '@/lib/history/service';
import { t } from '@/lib/i18n';
import { refuseChangesWhileLocked, unlessLocked } from '@/lib/lock/guard';
import { ensureIdleAlarm, LOCK_IDLE_ALARM, onIdleAlarm } from '@/lib/lock/idle';
import { LOCK_RECORD_NAME } from '@/lib/lock/sealed-storage';
import { isLocked, LOCK_SESSION_NAME } from '@/lib/lock/state';
import { domainForUrl, parseMenuItemId } from '@/lib/menus';
import { createMessageListener, createRequestHandlers } from '@/lib/messaging/handlers';
import type { ListChange } from '@/lib/messaging/protocol';
import { REGISTRATION_ALARM, REGISTRATION_RETRY_ALARM, registrationAlarmTarget } from '@/lib/network';
import { OUTBOX_ALARM } from '@/lib/outbox';
import { menuChangeRefusal } from '@/lib/policy/enforce';
import { profileGroupsItem } from '@/lib/profile-groups/groups';
import { SCHEDULES_ALARM } from '@/lib/schedules/reconcile';
import { schedulesItem } from '@/lib/schedules/store';
import { migrateStoredValues } from '@/lib/settings/migrate';
import {
  accountKeysItem,
  accountsItem,
  apiKeyItem,
  chosenProfileItem,
  connectionItem,
  contextMenuSettingsItem,
  diagnosisSettingsItem,
  dynamicIpSettingsItem,
  outboxItem,
  profilesCacheItem,
  registrationOutcomeItem,
} from '@/lib/settings/storage';
import {
  announceUnbreakReviews,
  applyManagedPolicy,
  clearDiagnosis,
  currentPolicy,
  deliverOutbox,
  ensureHistoryAlarm,
  expireTemporaryAllowsNow,
  forgetRecordsOfEarlierSession,
  otherAccountChanges,
  profilesOfSavedGroup,
  rebuildContextMenu,
  reconcileSchedulesNow,
  refreshBadge,
  refreshProfiles,
  register,
  removeAccount,
  resumeRollbackOf,
  retryOutboxNow,
  snapshotAccounts,
  submit,
  submitToProfiles,
  syncRegistrationAlarm,
  temporaryAllow,
  unbreak,
  unbreakReview,
} from './jobs';

/** Runs a job started by an event; a failure of one job never breaks the others. */
export function run(job: () => Promise<unknown>): void {
  job().catch((error: unknown) =>
    console.error('Background job failed', error instanceof Error ? error.name : ''),
  );
}

/** Install, update and browser start: put alarms, menu and badge in line with storage. */
/** Installed or updated: stored values are brought to this version's shape first (lib/settings/migrate.ts). */
export async function setUpAfterInstall(): Promise<void> {
  await migrateStoredValues().catch((error) => console.warn('Stored values were not migrated', error));
  await setUp();
}

export async function setUp(): Promise<void> {
  // The administrator's accounts are in place before anything works for them.
  await applyManagedPolicy().catch(() => undefined);
  await forgetRecordsOfEarlierSession().catch(() => undefined);
  await Promise.allSettled([
    syncRegistrationAlarm(),
    rebuildContextMenu(),
    refreshBadge(),
    ensureHistoryAlarm(),
  ]);
  // Temporary allows that ended while the browser was closed end now.
  await expireTemporaryAllowsNow().catch(() => undefined);
  await announceUnbreakReviews().catch(() => undefined);
  await Promise.allSettled([deliverOutbox(true), refreshProfiles(), reconcileSchedulesNow()]);
}

export { reconcileSchedulesNow };

export async function onAlarm(alarm: { name: string }): Promise<void> {
  // Each account has its own outbox and registration alarms (lib/outbox, lib/network).
  const registration = registrationAlarmTarget(alarm.name);
  if (alarm.name === OUTBOX_ALARM || alarm.name.startsWith(`${OUTBOX_ALARM}:`)) await deliverOutbox(false);
  else if (registration) await register(registration.retry ? 'retry' : 'alarm', registration.accountId);
  // Single alarms of versions before several accounts: the active account's, until set up again.
  else if (alarm.name === REGISTRATION_ALARM) await register('alarm');
  else if (alarm.name === REGISTRATION_RETRY_ALARM) await register('retry');
  else if (alarm.name === HISTORY_DAILY_ALARM) await snapshotAccounts();
  else if (rollbackAlarmAccount(alarm.name) !== null)
    await resumeRollbackOf(rollbackAlarmAccount(alarm.name)!);
  else if (alarm.name === LOCK_IDLE_ALARM) await onIdleAlarm(browser.alarms, activeAccountId);
  else if (alarm.name === SCHEDULES_ALARM) await reconcileSchedulesNow();
  else if (alarm.name === TEMPORARY_ALLOW_ALARM) {
    await expireTemporaryAllowsNow();
    // An unbreak's allows end by this alarm too; its review waits in the popup.
    await announceUnbreakReviews();
  }
}

/** Requests from the extension's own pages (lib/messaging/handlers.ts checks who asks and what). */
export const onMessage = createMessageListener(
  // While locked, the changes a person asks for wait for the passphrase (docs/lock.md).
  refuseChangesWhileLocked(
    createRequestHandlers({
      submit,
      submitToProfiles,
      register,
      removeAccount,
      // "Retry now" is answered within the bound a click is; the delivery goes on after it.
      deliverOutbox: retryOutboxNow,
      temporaryAllow,
      otherAccountChanges,
      unbreak,
      reviewUnbreak: unbreakReview,
      accountNames: readAccountNames,
      policy: currentPolicy,
    }),
    isLocked,
  ),
  browser.runtime,
);

const activeAccountId = async () => (await accountsItem.getValue()).active;

/** A menu click or a shortcut while locked: a notification says so, nothing is changed. */
const notifyLocked = (title: string, message: string) =>
  notify(browser.notifications, 'locked', title, message);

/**
 * Builds the change a menu click or a shortcut asks for; null when the page has no domain or the
 * administrator's policy closes the menu and the shortcuts (the menu is then empty, but a
 * shortcut still fires).
 */
async function changeFor(
  list: ListChange['list'],
  url: string | undefined,
  source: 'menu' | 'shortcut',
  profile?: string,
  pageUrl: string | undefined = url,
): Promise<ListChange | null> {
  const refusal = menuChangeRefusal((await currentPolicy()).scope);
  if (refusal !== null) {
    await notify(browser.notifications, 'policy', t('worker.notDone'), refusal);
    return null;
  }
  const domain = domainForUrl(url);
  if (!domain) {
    await notify(
      browser.notifications,
      'no-domain',
      t('worker.notDone'),
      t(list === 'whitelist' ? 'worker.noDomainWhitelist' : 'worker.noDomainBlocklist'),
    );
    return null;
  }
  if (isPublicSuffix(domain)) {
    // A site on a public suffix (co.uk, cloudfront.net) has no registrable domain, and one click
    // must not cover every site under it (docs/service-api.md, "Which domain one click adds").
    await notify(
      browser.notifications,
      'public-suffix',
      t('worker.notDone'),
      t('worker.publicSuffix.notAdded', { domain }),
    );
    return null;
  }
  // The host of the page it was made on, for the entry's record (lib/notes); never the address.
  const pageHost = pageUrl === undefined ? null : hostnameFromUrl(pageUrl);
  const page = pageHost === null ? {} : { page: pageHost };
  const { form } = await connectionItem.getValue();
  if (!capabilitiesOf(form).profileSelection) return { op: 'add', list, domain, source, ...page };
  return {
    op: 'add',
    list,
    domain,
    profile: profile ?? (await chosenProfileItem.getValue()),
    source,
    ...page,
  };
}

export async function onMenuClicked(
  info: { menuItemId: string | number; pageUrl?: string; linkUrl?: string },
  tab?: { url?: string },
): Promise<void> {
  const action = parseMenuItemId(info.menuItemId);
  if (!action) return;
  const pageUrl = info.pageUrl ?? tab?.url;
  const url = action.target === 'link' ? info.linkUrl : pageUrl;
  await unlessLocked(isLocked, notifyLocked, async () => {
    const change = await changeFor(action.list, url, 'menu', action.profile, pageUrl);
    if (!change) return;
    if (action.group === undefined) {
      await submit(change);
      return;
    }
    // A saved group: one change per profile it still has (docs/several-profiles.md).
    const { profile: _single, ...forEach } = change;
    const profiles = await profilesOfSavedGroup(action.group);
    if (profiles.length > 0) await submitToProfiles(forEach, profiles);
  });
}

export const COMMANDS = { 'whitelist-site': 'whitelist', 'blocklist-site': 'blocklist' } as const;

export async function onCommand(command: string, tab?: { url?: string }): Promise<void> {
  if (!(command in COMMANDS)) return;
  const list = COMMANDS[command as keyof typeof COMMANDS];
  // The shortcut grants activeTab for the current tab; older browsers do not pass it along.
  const url = tab?.url ?? (await browser.tabs.query({ active: true, currentWindow: true }))[0]?.url;
  await unlessLocked(isLocked, notifyLocked, async () => {
    const change = await changeFor(list, url, 'shortcut');
    if (change) await submit(change);
  });
}

const MENU_KEYS = new Set(
  [
    connectionItem,
    profilesCacheItem,
    contextMenuSettingsItem,
    chosenProfileItem,
    accountsItem,
    profileGroupsItem,
  ].map((item) => item.name),
);
const BADGE_KEYS = new Set(
  [
    registrationOutcomeItem,
    outboxItem,
    dynamicIpSettingsItem,
    diagnosisSettingsItem,
    // The badge is the active account's: another account made active changes it.
    apiKeyItem,
    connectionItem,
    accountsItem,
  ].map((item) => item.name),
);
/** Where the accounts' keys and connections are: a change may let waiting changes go through. */
const ACCOUNT_KEYS = new Set(
  [apiKeyItem, connectionItem, accountsItem, accountKeysItem].map((item) => item.name),
);

/** Keeps alarms, menu and badge following storage, whoever changed it (options page, popup, worker). */
export async function onStorageChanged(changes: Record<string, unknown>, area: string): Promise<void> {
  if (area === 'session') return onSessionChanged(Object.keys(changes));
  // The administrator changed the policy: accounts, page diagnosis and the menu follow it.
  if (area === 'managed') {
    await applyManagedPolicy();
    await rebuildContextMenu();
    return;
  }
  if (area !== 'local') return;
  const changed = Object.keys(changes);
  const jobs: Promise<unknown>[] = [];
  // An account's dynamic IP settings are in its entry while it is not the active one.
  if (changed.includes(dynamicIpSettingsItem.name) || changed.includes(accountsItem.name)) {
    jobs.push(syncRegistrationAlarm());
  }
  if (changed.some((name) => MENU_KEYS.has(name))) jobs.push(rebuildContextMenu());
  if (changed.includes(diagnosisSettingsItem.name) && !(await diagnosisSettingsItem.getValue()).enabled) {
    // Turned off: the failed hosts seen so far are forgotten (and their badges with them).
    await clearDiagnosis();
  }
  if (changed.some((name) => BADGE_KEYS.has(name))) jobs.push(refreshBadge());
  if (changed.some((name) => ACCOUNT_KEYS.has(name))) {
    // A new key, service or account: the menu needs its profiles, and changes held back may go
    // through now. An account the administrator's policy set up, changed by anything else (an
    // imported file, say), is put back as the policy has it (lib/policy/apply.ts).
    jobs.push(refreshProfiles(), deliverOutbox(true), applyManagedPolicy());
  }
  // A rule, an override or the lead saved (by a page, an import, or a menu change kept): what must
  // hold is sent now, and the alarm follows.
  if (changed.includes(schedulesItem.name)) jobs.push(reconcileSchedulesNow());
  // The lock turned on: its record is written after the session's keys, so the session's change
  // found no record yet and the idle alarm starts here (docs/lock.md, "When it locks").
  if (changed.includes(LOCK_RECORD_NAME)) jobs.push(ensureIdleAlarm(browser.alarms));
  await Promise.allSettled(jobs);
}

/**
 * Unlocking puts the keys into storage.session (docs/lock.md): changes held back may go through,
 * and the idle alarm starts.
 */
async function onSessionChanged(changed: string[]): Promise<void> {
  // Page diagnosis writes storage.session often: only the lock's own names start anything here.
  if (!changed.some((name) => ACCOUNT_KEYS.has(name) || name === LOCK_SESSION_NAME)) return;
  const jobs: Promise<unknown>[] = [ensureIdleAlarm(browser.alarms)];
  if (changed.some((name) => ACCOUNT_KEYS.has(name)))
    jobs.push(refreshBadge(), refreshProfiles(), deliverOutbox(true));
  await Promise.allSettled(jobs);
}
