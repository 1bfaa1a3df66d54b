/** What a page says when a lock operation did not happen (./state.ts `LockOutcome`). */
import { t } from '@/lib/i18n';
import type { LockRefusal } from './state';

export function refusalText(refusal: { reason: LockRefusal; waitSeconds?: number }): string {
  switch (refusal.reason) {
    case 'wrong-passphrase':
      return refusal.waitSeconds
        ? `${t('lock.wrong')} ${t('lock.wait', { seconds: refusal.waitSeconds })}`
        : t('lock.wrong');
    case 'wait':
      return t('lock.wait', { seconds: refusal.waitSeconds ?? 1 });
    case 'no-session-storage':
      return t('lock.noSessionStorage');
    case 'required':
      return t('lock.required');
    case 'already-on':
      return t('lock.alreadyOn');
    case 'not-on':
      return t('lock.notOn');
  }
}
