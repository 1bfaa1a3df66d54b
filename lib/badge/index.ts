/**
 * The toolbar badge and the notifications of the worker. The badge is always computed from
 * stored state (registration outcome, outbox, a tab's failed hosts), never the other way round: it can be rebuilt at
 * any time, and nothing is lost when the browser resets it.
 */
import { t, tn } from '@/lib/i18n';

export interface BadgeState {
  /** From `registrationIsFailing(outcome)` while dynamic IP is on. */
  registrationFailing: boolean;
  /** The outcome message shown in the toolbar button's title. */
  registrationMessage?: string;
  /** Changes waiting in the outbox. */
  pendingChanges: number;
  /**
   * Hosts of the tab's page that failed with a DNS-type error (lib/diagnosis), for a tab's own
   * badge while page diagnosis is on; absent for the badge of every other tab.
   */
  failedHosts?: number;
}

export interface Badge {
  text: string;
  color: string;
  /** The toolbar button's title: its accessible name, so the warning is not colour alone. */
  title: string;
}

const count = (n: number) => (n > 99 ? '99+' : String(n));

/**
 * One badge, by precedence: the registration warning first (a silently lost registration stops
 * filtering altogether), then the tab's failed hosts (about the page in front of the user, and
 * what the popup opens on), then the changes waiting to be sent (the popup lists those too).
 */
export function computeBadge(state: BadgeState): Badge {
  const name = t('extName');
  if (state.registrationFailing) {
    return {
      text: '!',
      color: '#B00020',
      title: state.registrationMessage
        ? t('badge.registrationFailingReason', { name, reason: state.registrationMessage })
        : t('badge.registrationFailing', { name }),
    };
  }
  const failed = state.failedHosts ?? 0;
  if (failed > 0)
    return { text: count(failed), color: '#1A56B0', title: tn('badge.failedHosts', failed, { name }) };
  const pending = state.pendingChanges;
  if (pending > 0)
    return { text: count(pending), color: '#8A5A00', title: tn('badge.pending', pending, { name }) };
  return { text: '', color: '#5F6368', title: name };
}

/** The part of `browser.action` the badge uses. */
export interface ActionApi {
  setBadgeText(details: { text: string; tabId?: number }): Promise<void>;
  setBadgeBackgroundColor(details: { color: string; tabId?: number }): Promise<void>;
  setTitle(details: { title: string; tabId?: number }): Promise<void>;
}

/**
 * Sets the badge of every tab, or of one tab when `tabId` is given (that tab's own values win
 * over the global ones; the browser drops them when the tab closes).
 */
export async function applyBadge(action: ActionApi, badge: Badge, tabId?: number): Promise<void> {
  const scope = tabId === undefined ? {} : { tabId };
  await action.setBadgeText({ text: badge.text, ...scope });
  await action.setBadgeBackgroundColor({ color: badge.color, ...scope });
  await action.setTitle({ title: badge.title, ...scope });
}

/**
 * The extension's icon (public/icon, made by scripts/icons.mjs). Both browsers take a path inside
 * the extension for a notification's icon.
 */
export const NOTIFICATION_ICON = '/icon/128.png';

export interface NotificationsApi {
  create(
    id: string,
    options: { type: 'basic'; iconUrl: string; title: string; message: string },
  ): Promise<string>;
}

/**
 * Tells the user the outcome of an action they took outside a page (menu, shortcut) or of a
 * change that went through later. One notification per change id: a newer outcome replaces it.
 */
export async function notify(
  api: NotificationsApi,
  id: string,
  title: string,
  message: string,
): Promise<void> {
  try {
    await api.create(id, { type: 'basic', iconUrl: NOTIFICATION_ICON, title, message });
  } catch {
    // Notifications can be turned off by the user or the system; the outcome stays in storage.
  }
}
