/**
 * Firefox's right-click menu and keyboard shortcuts, driven in the browser window the way a
 * person's mouse and keyboard drive them (harness/firefox-popup.ts says how the window is
 * reached): a real right-click on the page opens the content-area menu, whose items are chosen by
 * their labels; keys go through the same input path as a keyboard's (nsITextInputProcessor).
 */
import type { BrowserWindow } from './firefox-popup.ts';

/**
 * Right-clicks the middle of the selected tab's page and chooses the item reached by `labels`
 * (each submenu's label, then the item's), as shown. Retries while the first label is not in the
 * menu yet (the extension builds its items after setup).
 */
export function chooseFromPageContextMenu(window: BrowserWindow, labels: readonly string[]): Promise<void> {
  return window.evaluate<void>(`(async () => {
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const until = async (what, check, timeoutMs = 10000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value) return value;
        if (Date.now() > deadline) throw new Error('Firefox context menu: timed out waiting for ' + what);
        await sleep(25);
      }
    };
    const labels = ${JSON.stringify(labels)};
    const menu = document.getElementById('contentAreaContextMenu');
    const childLabelled = (popup, label) =>
      [...popup.children].find((item) => !item.hidden && item.getAttribute('label') === label);
    const deadline = Date.now() + 10000;
    for (;;) {
      const box = gBrowser.selectedBrowser.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      for (const [type, buttons] of [['mousedown', 2], ['contextmenu', 0], ['mouseup', 0]]) {
        window.synthesizeMouseEvent(type, x, y, { button: 2, buttons, clickCount: 1 },
          { isDOMEventSynthesized: false });
      }
      await until('the context menu to open', () => menu.state === 'open');
      if (childLabelled(menu, labels[0])) break;
      menu.hidePopup();
      await until('the context menu to close', () => menu.state === 'closed');
      if (Date.now() > deadline) throw new Error('Firefox context menu: no item ' + labels[0]);
      await sleep(200);
    }
    let popup = menu;
    for (const [index, label] of labels.entries()) {
      const item = await until('the item ' + label, () => childLabelled(popup, label));
      if (index === labels.length - 1) {
        popup.activateItem(item);
        return;
      }
      item.openMenu(true);
      await until('the submenu ' + label, () => item.menupopup.state === 'open');
      popup = item.menupopup;
    }
  })()`);
}

/** A key as KeyboardEvent init values: `key`, `code`, `keyCode`. */
export interface KeySpec {
  key: string;
  code: string;
  keyCode: number;
}

export const KEYS = {
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18 },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17 },
  letter: (letter: string): KeySpec => ({
    key: letter.toUpperCase(),
    code: `Key${letter.toUpperCase()}`,
    keyCode: letter.toUpperCase().charCodeAt(0),
  }),
} as const;

/** Presses `keys` together (modifiers first), as a keyboard does, in the browser window. */
export function pressKeys(window: BrowserWindow, keys: readonly KeySpec[]): Promise<void> {
  return window.evaluate<void>(`(() => {
    const input = Cc['@mozilla.org/text-input-processor;1'].createInstance(Ci.nsITextInputProcessor);
    if (!input.beginInputTransactionForTests(window)) throw new Error('Firefox: no keyboard input transaction');
    const keys = ${JSON.stringify(keys)};
    for (const key of keys) input.keydown(new KeyboardEvent('', key));
    for (const key of [...keys].reverse()) input.keyup(new KeyboardEvent('', key));
  })()`);
}
