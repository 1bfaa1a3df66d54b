/** The props of the popup's page (./PopupApp.tsx) and of its ready view's parts (./Ready.tsx). */

import type { PopupLock } from '@/lib/lock/popup-lock';
import type { PopupController } from '@/lib/popup/controller';
import type { ReadyState } from '@/lib/popup/state';
import type { OptionsSection } from '@/lib/popup/view';

export interface PopupAppProps {
  controller: PopupController;
  /** Opens the options page, at a section when one is named (`options.html#<section>`). */
  openOptions(section?: OptionsSection): void;
  /** `performance.mark` in the extension; measurements of speed read these marks. */
  mark(name: 'verdict' | 'verdict-fresh'): void;
  /** The parts shown after the verdict (./PopupExtras.tsx), loaded once the first view is on screen. */
  loadExtras(): Promise<Extras>;
  now?: () => number;
  /** The passphrase lock (lib/lock): absent, changes are never held back here. */
  lock?: PopupLock;
}

export type Extras = typeof import('./PopupExtras');

export interface ReadyProps extends Pick<PopupAppProps, 'openOptions' | 'mark' | 'lock'> {
  state: ReadyState;
  controller: PopupController;
  now: () => number;
  extras: Extras | null;
}
