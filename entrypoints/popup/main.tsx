import { browser } from '@wxt-dev/browser';
import { render } from 'preact';
import { PopupApp } from '@/components/popup/PopupApp';
import { createViewCache } from '@/lib/cache/view-cache';
import { messageLocale, platformLookup, useMessageLookup } from '@/lib/i18n';
import { rememberedLookup } from '@/lib/i18n/remembered';
import { createPopupController } from '@/lib/popup/controller';
import { markStep } from '@/lib/popup/mark-step';
import { openOptionsPage } from '@/lib/popup/options-page';
import { readTabAddress, takeEarlyTab } from '@/lib/popup/read-tab';
import { askWorkerForDomains } from '@/lib/popup/registrable';
import { inputSince, reopenOnce, startMirrorUsed } from '@/lib/popup/start-mirror';
import { retryOutbox, submitChange } from '@/lib/popup/worker-requests';
import { themeItem } from '@/lib/settings/storage';
import { auditStartMirror, rememberEarlyReads, storageKeysReadSoFar } from '@/lib/settings/stored-reads';
import { pageLocalStorage } from '@/lib/theme/first-paint';
import { followStoredTheme, whenIdle } from '@/lib/theme/theme';
import './style.css';

markStep('modules');

// The texts the last opening looked up, without asking the browser again (lib/i18n/remembered.ts).
const texts = rememberedLookup(platformLookup, pageLocalStorage(), import.meta.env.BUILD_ID ?? 'unbuilt');
useMessageLookup(texts.lookup);

/** The first script's reading of the tab (popup-start.ts), or one started now. */
const readTab = () => takeEarlyTab() ?? readTabAddress(browser.tabs, location.search);

/** Whether the user has clicked or typed here: a stale start mirror then no longer reopens the page. */
const userActed = inputSince(document);

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
  // client. Leaving it (and the statistics parser) out of the start path brought the real
  // popup's verdict 10–19 ms sooner in both browsers (the two builds alternated in one browser).
  loadRemote: () => import('@/lib/popup/remote'),
  submitChange,
  retryOutbox,
  askWorkerForDomains,
  // The next opening reads the same keys before its modules have loaded (popup-start.ts): the
  // keys the first view needed, and no more. What the panels read after it would only add to the
  // reads ahead of the verdict (in Firefox each key is a request of its own, with its own event).
  onFirstView: () => {
    markStep('first-view');
    const firstViewKeys = storageKeysReadSoFar();
    whenIdle(() => {
      rememberEarlyReads(pageLocalStorage(), firstViewKeys);
      texts.remember();
      // Firefox: the start mirror is compared with storage (asked for only now, off the verdict's
      // path); shown stale, the page opens anew unless the user has acted in it.
      if (startMirrorUsed()) {
        void auditStartMirror({ session: browser.storage.session, local: browser.storage.local }).then(
          (outcome) => {
            // The mirror now holds what storage does; the mark says whether this opening could
            // start from it (`mirror-fresh`) or not (docs/architecture.md, "The start mirror").
            markStep(`mirror-${outcome}`);
            reopenOnce(outcome, { sessionStorage, reload: () => location.reload(), acted: userActed });
          },
          () => {},
        );
      }
    });
  },
  now: Date.now,
});
// The cached theme is on <html> already (popup-start.ts); storage is read once idle.
followStoredTheme({
  root: document.documentElement,
  cache: pageLocalStorage(),
  item: themeItem,
  schedule: whenIdle,
});
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
