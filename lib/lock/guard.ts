/**
 * What the worker refuses while locked (docs/lock.md, "What asks for the passphrase"): the
 * changes a person asks for from a page (the popup asks for the passphrase before sending them;
 * a page that did not is refused here), and the right-click menu and the shortcuts, which say
 * so in a notification instead of acting.
 */
import { t } from '@/lib/i18n';
import type { createRequestHandlers } from '@/lib/messaging/handlers';

type Handlers = ReturnType<typeof createRequestHandlers>;

/** `handlers`, with the changes a person asks for refused while `isLocked()`. */
export function refuseChangesWhileLocked(handlers: Handlers, isLocked: () => Promise<boolean>): Handlers {
  const refused = () => ({ state: 'failed' as const, message: t('lock.refused') });
  return {
    ...handlers,
    'submit-change': async (request, from) =>
      (await isLocked()) ? refused() : handlers['submit-change'](request, from),
    'submit-to-profiles': async (request, from) =>
      (await isLocked())
        ? { outcomes: request.profiles.map((profile) => ({ profile, ...refused() })) }
        : handlers['submit-to-profiles'](request, from),
    'temporary-allow': async (request, from) =>
      (await isLocked()) ? refused() : handlers['temporary-allow'](request, from),
    unbreak: async (request, from) =>
      (await isLocked()) ? { ...refused(), allowed: [] } : handlers.unbreak(request, from),
    'unbreak-review': async (request, from) =>
      (await isLocked()) ? refused() : handlers['unbreak-review'](request, from),
    'remove-account': async (request, from) =>
      (await isLocked()) ? { removed: false, discarded: 0 } : handlers['remove-account'](request, from),
  };
}

/**
 * Runs a menu click's or a shortcut's `act` unless locked; locked, it tells the user with a
 * notification (`notify`) and does nothing.
 */
export async function unlessLocked(
  isLocked: () => Promise<boolean>,
  notify: (title: string, message: string) => Promise<unknown>,
  act: () => Promise<void>,
): Promise<void> {
  if (await isLocked()) {
    await notify(t('lock.lockedTitle'), t('lock.workerLocked'));
    return;
  }
  await act();
}
