import { render } from 'preact';
import { browser } from 'wxt/browser';
import { PopupApp } from '@/components/popup/PopupApp';
import { createViewCache } from '@/lib/cache/view-cache';
import { messageLocale } from '@/lib/i18n';
import { createPopupLock } from '@/lib/lock/popup-lock';
import { createPopupController } from '@/lib/popup/controller';
import { markStep } from '@/lib/popup/mark-step';
import { openOptionsPage } from '@/lib/popup/options-page';
import { readTabAddress, type TabAddress } from '@/lib/popup/read-tab';
import { askWorkerForDomains } from '@/lib/popup/registrable';
import { retryOutbox, submitChange } from '@/lib/popup/worker-requests';
import { dropEarlyAnswers, useEarlyAnswers } from '@/lib/settings/early-answers';
import { themeItem } from '@/lib/settings/storage';
import { pageLocalStorage } from '@/lib/theme/first-paint';
import { forgetRetiredRecords } from '@/lib/theme/retired-records';
import { followStoredTheme, whenIdle } from '@/lib/theme/theme';
import './style.css';

markStep('modules');

// What the first script (popup-start.ts) asked for: storage reads take its answers from now on.
let earlyTab = useEarlyAnswers() as Promise<TabAddress> | undefined;

/** The first script's reading of the tab (once), or one started now. */
const readTab = () => {
  const tab = earlyTab ?? readTabAddress(browser.tabs, location.search);
  earlyTab = undefined;
  return tab;
};

const lock = createPopupLock({
  pageUrl: async () => (await readTabAddress(browser.tabs, location.search)).url,
});
const cache = createViewCache();
const controller = createPopupController({
  readTab,
  cache: {
    ...cache,
    readLists: (scope, account, hosts) => {
      markStep('lists-asked');
      return cache.readLists(scope, account, hosts).finally(() => markStep('lists'));
    },
  },
  // Loaded only when a cached view is stale or missing: a warm opening never needs the API
  // client or the statistics parser, so they stay off the start path.
  loadRemote: () => import('@/lib/popup/remote'),
  submitChange,
  retryOutbox,
  askWorkerForDomains,
  // What the first view did not read of the first script's answers may be stale by the time
  // anything asks for it: from now on, storage answers.
  onFirstView: () => {
    markStep('first-view');
    dropEarlyAnswers();
  },
  lockedNow: async () => (await lock.status()).locked,
  now: Date.now,
});
// The cached theme is on <html> already (popup-start.ts); storage is read once idle.
followStoredTheme({
  root: document.documentElement,
  cache: pageLocalStorage(),
  item: themeItem,
  schedule: whenIdle,
});
whenIdle(() => forgetRetiredRecords(pageLocalStorage()));
document.documentElement.lang = messageLocale();

// The first render is the first view (the verdict, or what stands in for it): rendering the
// "starting" state before it cost both browsers a whole render ahead of the one the user reads.
// Should the first view be slow, the starting state shows after STARTING_VIEW_DELAY_MS.
const STARTING_VIEW_DELAY_MS = 100;
let shown = false;
const show = () => {
  if (shown) return;
  shown = true;
  stopWaiting();
  render(
    <PopupApp
      controller={controller}
      openOptions={(section) => void openOptionsPage(browser, section)}
      mark={(name) => performance.mark(name)}
      loadExtras={() => import('@/components/popup/PopupExtras')}
      lock={lock}
    />,
    document.getElementById('app') as HTMLElement,
  );
  markStep('rendered');
};
const stopWaiting = controller.subscribe(() => {
  if (controller.getState().phase !== 'starting') show();
});
setTimeout(show, STARTING_VIEW_DELAY_MS);
void controller.start();
