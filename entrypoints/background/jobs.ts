/**
 * The worker's jobs, wired to the browser. Each reads what it needs from storage when it runs:
 * nothing is kept in worker globals, because the worker can be stopped between any two events.
 */
import { browser } from 'wxt/browser';
import { applyBadge, computeBadge, notify } from '@/lib/badge';
import { buildMenuItems, readMenuInput, rebuildMenus, refreshProfilesCache } from '@/lib/menus';
import type { ChangeOutcome, ListChange } from '@/lib/messaging/protocol';
import {
  ensureRegistrationAlarm,
  type RegistrationTrigger,
  registerOnce,
  registrationIsFailing,
} from '@/lib/network';
import { deliverPending, type OutboxDeps, submitChange } from '@/lib/outbox';
import { createConfiguredClient } from '@/lib/settings/api-client';
import {
  dynamicIpSettingsItem,
  outboxItem,
  type RegistrationOutcome,
  registrationOutcomeItem,
  type SettledChange,
} from '@/lib/settings/storage';

const getClient = () => createConfiguredClient();

function changeNotificationId(change: ListChange): string {
  return `change:${change.op}:${change.list}:${change.profile ?? ''}:${change.domain}`;
}

function outcomeTitle(state: ChangeOutcome['state']): string {
  if (state === 'delivered') return 'Done';
  if (state === 'pending') return 'Waiting to be sent';
  return 'Not done';
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

const outboxDeps: OutboxDeps = { getClient, alarms: browser.alarms, onSettled: reportLateOutcome };

export function deliverOutbox(force: boolean) {
  return deliverPending(outboxDeps, { force });
}

/** Popup, menu and shortcut changes all come through here. */
export async function submit(change: ListChange): Promise<ChangeOutcome> {
  const outcome = await submitChange(change, outboxDeps);
  // The popup shows its own outcome; the menu and shortcuts have no page to show it in.
  if (change.source === 'menu' || change.source === 'shortcut') {
    await notify(
      browser.notifications,
      changeNotificationId(change),
      outcomeTitle(outcome.state),
      outcome.message,
    );
  }
  return outcome;
}

export function register(trigger: RegistrationTrigger): Promise<RegistrationOutcome | null> {
  return registerOnce(
    { getClient, fetch: globalThis.fetch.bind(globalThis), alarms: browser.alarms },
    trigger,
  );
}

export async function syncRegistrationAlarm(): Promise<void> {
  await ensureRegistrationAlarm(browser.alarms, await dynamicIpSettingsItem.getValue());
}

export async function refreshBadge(): Promise<void> {
  const [settings, outcome, outbox] = await Promise.all([
    dynamicIpSettingsItem.getValue(),
    registrationOutcomeItem.getValue(),
    outboxItem.getValue(),
  ]);
  const failing = settings.enabled && registrationIsFailing(outcome);
  await applyBadge(
    browser.action,
    computeBadge({
      registrationFailing: failing,
      ...(failing && outcome ? { registrationMessage: outcome.message } : {}),
      pendingChanges: outbox.length,
    }),
  );
}

export async function rebuildContextMenu(): Promise<void> {
  const items = buildMenuItems(await readMenuInput());
  await rebuildMenus(browser.contextMenus, items, () => browser.runtime.lastError);
}

/** Best effort: the menu falls back to the last chosen profile until a list succeeds. */
export async function refreshProfiles(): Promise<void> {
  const client = await getClient();
  if (!client) return;
  try {
    await refreshProfilesCache(client);
  } catch {
    // Offline or a bad key: the cached profiles stay; the options page reports connection problems.
  }
}
