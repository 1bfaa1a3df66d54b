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
import { t } from '@/lib/i18n';
import { domainForUrl, parseMenuItemId } from '@/lib/menus';
import { createMessageListener, createRequestHandlers } from '@/lib/messaging/handlers';
import type { ListChange } from '@/lib/messaging/protocol';
import { REGISTRATION_ALARM, REGISTRATION_RETRY_ALARM, registrationAlarmTarget } from '@/lib/network';
import { OUTBOX_ALARM } from '@/lib/outbox';
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
  clearDiagnosis,
  deliverOutbox,
  expireTemporaryAllowsNow,
  forgetRecordsOfEarlierSession,
  otherAccountChanges,
  rebuildContextMenu,
  reconcileSchedulesNow,
  refreshBadge,
  refreshProfiles,
  register,
  removeAccount,
  retryOutboxNow,
  submit,
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
  await forgetRecordsOfEarlierSession().catch(() => undefined);
  await Promise.allSettled([syncRegistrationAlarm(), rebuildContextMenu(), refreshBadge()]);
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
  else if (alarm.name === SCHEDULES_ALARM) await reconcileSchedulesNow();
  else if (alarm.name === TEMPORARY_ALLOW_ALARM) {
    await expireTemporaryAllowsNow();
    // An unbreak's allows end by this alarm too; its review waits in the popup.
    await announceUnbreakReviews();
  }
}

/** Requests from the extension's own pages (lib/messaging/handlers.ts checks who asks and what). */
export const onMessage = createMessageListener(
  createRequestHandlers({
    submit,
    register,
    removeAccount,
    // "Retry now" is answered within the bound a click is; the delivery goes on after it.
    deliverOutbox: retryOutboxNow,
    temporaryAllow,
    otherAccountChanges,
    unbreak,
    reviewUnbreak: unbreakReview,
    accountNames: readAccountNames,
  }),
  browser.runtime,
);

/** Builds the change a menu click or a shortcut asks for; null when the page has no domain. */
async function changeFor(
  list: ListChange['list'],
  url: string | undefined,
  source: 'menu' | 'shortcut',
  profile?: string,
  pageUrl: string | undefined = url,
): Promise<ListChange | null> {
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
  const change = await changeFor(action.list, url, 'menu', action.profile, pageUrl);
  if (change) await submit(change);
}

export const COMMANDS = { 'whitelist-site': 'whitelist', 'blocklist-site': 'blocklist' } as const;

export async function onCommand(command: string, tab?: { url?: string }): Promise<void> {
  if (!(command in COMMANDS)) return;
  const list = COMMANDS[command as keyof typeof COMMANDS];
  // The shortcut grants activeTab for the current tab; older browsers do not pass it along.
  const url = tab?.url ?? (await browser.tabs.query({ active: true, currentWindow: true }))[0]?.url;
  const change = await changeFor(list, url, 'shortcut');
  if (change) await submit(change);
}

const key = (item: { key: string }) => item.key.replace(/^local:/, '');
const MENU_KEYS = new Set(
  [connectionItem, profilesCacheItem, contextMenuSettingsItem, chosenProfileItem, accountsItem].map(key),
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
  ].map(key),
);
/** Where the accounts' keys and connections are: a change may let waiting changes go through. */
const ACCOUNT_KEYS = new Set([apiKeyItem, connectionItem, accountsItem, accountKeysItem].map(key));

/** Keeps alarms, menu and badge following storage, whoever changed it (options page, popup, worker). */
export async function onStorageChanged(changes: Record<string, unknown>, area: string): Promise<void> {
  if (area !== 'local') return;
  const changed = Object.keys(changes);
  const jobs: Promise<unknown>[] = [];
  // An account's dynamic IP settings are in its entry while it is not the active one.
  if (changed.includes(key(dynamicIpSettingsItem)) || changed.includes(key(accountsItem))) {
    jobs.push(syncRegistrationAlarm());
  }
  if (changed.some((name) => MENU_KEYS.has(name))) jobs.push(rebuildContextMenu());
  if (changed.includes(key(diagnosisSettingsItem)) && !(await diagnosisSettingsItem.getValue()).enabled) {
    // Turned off: the failed hosts seen so far are forgotten (and their badges with them).
    await clearDiagnosis();
  }
  if (changed.some((name) => BADGE_KEYS.has(name))) jobs.push(refreshBadge());
  if (changed.some((name) => ACCOUNT_KEYS.has(name))) {
    // A new key, service or account: the menu needs its profiles, and changes held back may go
    // through now.
    jobs.push(refreshProfiles(), deliverOutbox(true));
  }
  // A rule, an override or the lead saved (only pages write them): what must hold is sent now, and
  // the alarm follows.
  if (changed.includes(key(schedulesItem))) jobs.push(reconcileSchedulesNow());
  await Promise.allSettled(jobs);
}
