/**
 * The lock as the options page uses it (docs/lock.md, "The options page"): its status followed,
 * each operation's outcome as a sentence, the page's use counted for the idle time, and the
 * access requests approved or declined. `lockRequired` is where a policy (managed deployment)
 * will say the lock must stay on.
 */
import { browser } from 'wxt/browser';
import { t } from '@/lib/i18n';
import type { worker as workerClient } from '@/lib/messaging/worker-client';
import { refusalText } from './messages';
import { activeAccountId } from './popup-lock';
import { type AccessRequest, settleAccessRequest } from './requests';
import { LOCK_KEY_NAME, LOCK_RECORD_NAME } from './sealed-storage';
import * as state from './state';

export { type LockStatus, readLockStatus } from './state';

/** An operation's outcome as the page says it. */
export type OptionsLockOutcome = { ok: true; message: string } | { ok: false; message: string };

const said = (outcome: state.LockOutcome, success: string): OptionsLockOutcome =>
  outcome.ok ? { ok: true, message: success } : { ok: false, message: refusalText(outcome) };

export const MIN_PASSPHRASE_LENGTH = 8;

/** Null when the two typed passphrases may be used; else why not. */
export function passphraseProblem(passphrase: string, repeated: string): string | null {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) return t('lock.tooShort');
  if (passphrase !== repeated) return t('lock.mismatch');
  return null;
}

/** Calls back whenever the lock is turned on or off, changed, locked or unlocked. */
export function watchLock(callback: () => void): () => void {
  const listener = (changes: Record<string, unknown>, area: string) => {
    const names = [LOCK_RECORD_NAME, state.LOCK_SESSION_NAME, state.FAILURES_NAME];
    if ([...names, ...(area === 'session' ? [LOCK_KEY_NAME] : [])].some((name) => name in changes))
      callback();
  };
  browser.storage.onChanged.addListener(listener);
  return () => browser.storage.onChanged.removeListener(listener);
}

export async function turnOn(choice: Parameters<typeof state.turnOnLock>[0]): Promise<OptionsLockOutcome> {
  return said(await state.turnOnLock(choice), t('lock.turnedOn'));
}

export async function unlock(passphrase: string): Promise<OptionsLockOutcome> {
  return said(await state.unlock(passphrase), '');
}

export async function lockNow(): Promise<void> {
  await state.lockNow(await activeAccountId());
}

export async function turnOff(
  passphrase: string,
  policy: { lockRequired: boolean },
): Promise<OptionsLockOutcome> {
  return said(await state.turnOffLock(passphrase, policy), t('lock.turnedOff'));
}

export async function changePassphrase(current: string, next: string): Promise<OptionsLockOutcome> {
  return said(await state.changePassphrase(current, next), t('lock.changed'));
}

export async function saveSettings(
  change: Parameters<typeof state.changeLockSettings>[0],
): Promise<OptionsLockOutcome> {
  return said(await state.changeLockSettings(change), t('lock.saved'));
}

/** Counts a use of the unlocked page for the idle time, at most once a minute. */
export function countUseOf(target: EventTarget, now: () => number = Date.now): () => void {
  let last = 0;
  const used = () => {
    if (now() - last < 60_000) return;
    last = now();
    void state.touchLock(last);
  };
  target.addEventListener('pointerdown', used);
  target.addEventListener('keydown', used);
  return () => {
    target.removeEventListener('pointerdown', used);
    target.removeEventListener('keydown', used);
  };
}

/** A request as a text to copy and send by other means. */
export function requestText(request: AccessRequest, locale?: string): string {
  return t('lock.requestText', {
    site: request.site,
    time: new Date(request.at).toLocaleString(locale),
    page: request.page || request.site,
    profile: request.profile ?? t('lock.requestNoProfile'),
    message: request.message,
  }).trim();
}

/**
 * Approves a request: the site on the whitelist, or allowed for an hour, through the worker as
 * any change from this page; the request goes once the worker took it.
 */
export async function approveRequest(
  request: AccessRequest,
  how: 'whitelist' | 'hour',
  worker: Pick<typeof workerClient, 'submitChange' | 'temporaryAllow'>,
): Promise<OptionsLockOutcome> {
  const accountId = request.accountId || (await activeAccountId()) || '';
  const profile = request.profile === undefined ? {} : { profile: request.profile };
  const outcome =
    how === 'whitelist'
      ? await worker.submitChange(
          { op: 'add', list: 'whitelist', domain: request.site, source: 'options', ...profile },
          { accountId },
        )
      : await worker.temporaryAllow({
          domain: request.site,
          durationMs: 60 * 60_000,
          before: 'none',
          accountId,
          ...profile,
        });
  if (outcome.state === 'failed') return { ok: false, message: outcome.message };
  await settleAccessRequest(request.id);
  return {
    ok: true,
    message: t(how === 'whitelist' ? 'lock.approved' : 'lock.approvedForAWhile', { site: request.site }),
  };
}

export async function declineRequest(request: AccessRequest): Promise<OptionsLockOutcome> {
  await settleAccessRequest(request.id);
  return { ok: true, message: t('lock.declined', { site: request.site }) };
}
