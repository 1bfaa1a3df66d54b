/**
 * The lock as the popup uses it (docs/lock.md, "The popup"): whether it is locked, unlocking with
 * the passphrase, "Lock now", and "Ask for access". The status is two small reads after the first
 * view; the derivation and zod load only when the passphrase is entered.
 */
import { browser } from 'wxt/browser';
import { t } from '@/lib/i18n';
import type { AccessRequest } from './requests';
import { LOCK_RECORD_NAME } from './sealed-storage';

const LOCK_SESSION_NAME = 'lockSession';

export interface PopupLockStatus {
  /** The lock is on. */
  on: boolean;
  /** On and locked: changes ask for the passphrase first. */
  locked: boolean;
}

export type PopupLockOutcome = { ok: true; message?: string } | { ok: false; message: string };

export type AccessAsked = Pick<AccessRequest, 'site' | 'message'> & { profile: string | undefined };

/** The active account's stable id (lib/accounts), read without the accounts module. */
export async function activeAccountId(): Promise<string | null> {
  const accounts = (await browser.storage.local.get('accounts')).accounts as { active?: unknown } | undefined;
  return typeof accounts?.active === 'string' ? accounts.active : null;
}

export type PopupLock = ReturnType<typeof createPopupLock>;

export function createPopupLock(deps: { pageUrl: () => Promise<string | undefined> }) {
  return {
    async status(): Promise<PopupLockStatus> {
      const [local, session] = await Promise.all([
        browser.storage.local.get(LOCK_RECORD_NAME),
        browser.storage.session ? browser.storage.session.get(LOCK_SESSION_NAME) : Promise.resolve({}),
      ]);
      const on = local[LOCK_RECORD_NAME] !== undefined && local[LOCK_RECORD_NAME] !== null;
      return { on, locked: on && (session as Record<string, unknown>)[LOCK_SESSION_NAME] === undefined };
    },
    /** Calls back when the lock is turned on or off, locks or unlocks; returns the unwatch function. */
    watch(callback: () => void): () => void {
      const listener = (changes: Record<string, unknown>, area: string) => {
        if (
          (area === 'local' && LOCK_RECORD_NAME in changes) ||
          (area === 'session' && LOCK_SESSION_NAME in changes)
        )
          callback();
      };
      browser.storage.onChanged.addListener(listener);
      return () => browser.storage.onChanged.removeListener(listener);
    },
    async unlock(passphrase: string): Promise<PopupLockOutcome> {
      const [{ unlock }, { refusalText }] = await Promise.all([import('./state'), import('./messages')]);
      const outcome = await unlock(passphrase);
      return outcome.ok ? outcome : { ok: false, message: refusalText(outcome) };
    },
    async lockNow(): Promise<void> {
      const { lockNow } = await import('./state');
      await lockNow(await activeAccountId());
    },
    async ask(request: AccessAsked): Promise<PopupLockOutcome> {
      const [{ recordAccessRequest }, accountId, page] = await Promise.all([
        import('./requests'),
        activeAccountId(),
        deps.pageUrl(),
      ]);
      await recordAccessRequest({
        site: request.site,
        ...(request.profile === undefined ? {} : { profile: request.profile }),
        accountId: accountId ?? '',
        page: page ?? '',
        at: Date.now(),
        message: request.message,
      });
      return { ok: true, message: t('lock.asked') };
    },
  };
}
