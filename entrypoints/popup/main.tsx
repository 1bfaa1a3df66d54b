import { render } from 'preact';
import { browser } from 'wxt/browser';
import { PopupApp } from '@/components/popup/PopupApp';
import { createPopupController, type TabAddress } from '@/components/popup/popup-controller';
import { askWorkerForDomains } from '@/components/popup/registrable';
import { workerDidNotAnswer } from '@/components/popup/TemporaryAllow';
import { createViewCache } from '@/lib/cache/view-cache';
import { messageLocale } from '@/lib/i18n';
import { askWorker } from '@/lib/messaging/ask-worker';
import {
  type ChangeOutcome,
  changeOutcomeSchema,
  type ListChange,
  retryOutboxResponseSchema,
} from '@/lib/messaging/protocol';
import { themeItem } from '@/lib/settings/storage';
import { followStoredTheme, whenIdle } from '@/lib/settings/theme';
import './style.css';

/**
 * `popup.html?tabId=<id>` shows that tab (the detached view); otherwise the active tab, whose
 * address `activeTab` reveals after the toolbar click. No `tabs` permission: without access the
 * tab comes back without a URL, and the popup says so.
 */
async function readTab(): Promise<TabAddress> {
  const requested = new URLSearchParams(location.search).get('tabId');
  if (requested !== null) {
    const id = Number(requested);
    if (!Number.isSafeInteger(id) || id < 0) return { url: undefined };
    return { url: (await browser.tabs.get(id)).url };
  }
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return { url: tab?.url };
}

async function submitChange(change: ListChange): Promise<ChangeOutcome> {
  return (await askWorker({ type: 'submit-change', change }, changeOutcomeSchema)) ?? workerDidNotAnswer();
}

async function retryOutbox(): Promise<number | null> {
  return (await askWorker({ type: 'retry-outbox' }, retryOutboxResponseSchema))?.pending ?? null;
}

const controller = createPopupController({
  readTab,
  cache: createViewCache(),
  loadRemote: () => import('@/components/popup/remote'),
  submitChange,
  retryOutbox,
  askWorkerForDomains,
  now: Date.now,
});
// Started before the first render, so the storage reads begin as early as possible.
void controller.start();
// The cached theme is on <html> already (public/theme-init.js); storage is read once idle.
followStoredTheme({
  root: document.documentElement,
  cache: localStorage,
  item: themeItem,
  schedule: whenIdle,
});

document.documentElement.lang = messageLocale();
render(
  <PopupApp
    controller={controller}
    openOptions={() => void browser.runtime.openOptionsPage()}
    mark={(name) => performance.mark(name)}
  />,
  document.getElementById('app') as HTMLElement,
);
