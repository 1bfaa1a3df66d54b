import { useEffect, useState } from 'preact/hooks';
import type { Extras } from './popup-props';

/**
 * Whether the administrator's policy lets the popup change the account: asked once the extras are
 * loaded (after the first view), true until then. The worker refuses a change the policy closes
 * whatever the popup shows (lib/messaging/handlers.ts).
 */
export function usePopupChangesAllowed(extras: Extras | null): boolean {
  const [allowed, setAllowed] = useState(true);
  useEffect(() => {
    if (!extras) return;
    let live = true;
    extras.popupChangesAllowed().then(
      (value) => live && setAllowed(value),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [extras]);
  return allowed;
}
