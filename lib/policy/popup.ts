/**
 * Whether the popup may offer changes under the administrator's policy. Read once the first view
 * is on screen (docs/architecture.md, "The popup's start path"): the popup's own module neither
 * waits for it nor loads zod for it; it comes with the extras (components/popup/PopupExtras.tsx).
 */
import { browser } from 'wxt/browser';
import { managedScope } from './managed';
import { readPolicy } from './policy';

export async function popupChangesAllowed(): Promise<boolean> {
  return managedScope(await readPolicy(browser.storage.managed)).popupChanges;
}
