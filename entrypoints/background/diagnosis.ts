/**
 * Page diagnosis in the worker: its listeners and their wiring to lib/diagnosis.
 *
 * MV3 Chrome makes an optional permission's API appear only once the permission is granted:
 * before that `browser.webRequest` and `browser.webNavigation` are undefined and no listener can
 * be added. So the listeners are added
 *   - at the top level of every worker start when the permissions are already granted (the worker
 *     is woken for a webRequest event only if the listener is added synchronously at start), and
 *   - from `permissions.onAdded`, the moment the user grants them on the options page.
 * `hasListener` keeps the second path from adding them twice. When the permissions are withdrawn
 * (the user turned diagnosis off, or removed them in the browser's settings) the browser stops the
 * events; the records are cleared and the badges go back to normal.
 */
import { browser } from 'wxt/browser';
import {
  type CommitDetails,
  type DiagnosisEventDeps,
  type ErrorDetails,
  onCommitted,
  onRequestError,
  onTabRemoved,
} from '@/lib/diagnosis/events';
import { concernsDiagnosis } from '@/lib/diagnosis/permissions';
import type { CompletedRequest } from '@/lib/diagnosis/unbreak';
import { diagnosisSettingsItem } from '@/lib/settings/storage';
import { run } from './handlers';
import { clearDiagnosis, noteUnbreakLoad, refreshBadge, refreshTabBadges } from './jobs';

const deps: DiagnosisEventDeps = {
  isEnabled: async () => (await diagnosisSettingsItem.getValue()).enabled,
  onHostsChanged: ({ tabId }) => refreshTabBadges([tabId]),
};

const handleRequestError = (details: ErrorDetails) => run(() => onRequestError(deps, details));
const handleNavigationError = (details: Omit<ErrorDetails, 'error' | 'type'> & { error?: string }) =>
  run(() => onRequestError(deps, { ...details, error: details.error ?? '' }));
const handleCommitted = (details: CommitDetails) => run(() => onCommitted(deps, details));
// "Unbreak this page" notes which allowed domains the site really loads (lib/diagnosis/unbreak.ts).
// Every finished request wakes the worker while diagnosis is on: one storage read, and nothing
// more unless an unbreak runs. No `types` filter: Chrome refuses a type it does not know
// (Firefox's 'imageset'), and lib/diagnosis/unbreak.ts leaves out the page's own navigation.
const handleCompleted = (details: CompletedRequest) => run(() => noteUnbreakLoad(details));

/** Adds the listeners of the optional APIs that are granted; safe to call again. */
export function addDiagnosisListeners(): void {
  const { webRequest, webNavigation } = browser as Partial<typeof browser>;
  if (webRequest && !webRequest.onErrorOccurred.hasListener(handleRequestError)) {
    webRequest.onErrorOccurred.addListener(handleRequestError, { urls: ['<all_urls>'] });
  }
  if (webRequest && !webRequest.onCompleted.hasListener(handleCompleted)) {
    webRequest.onCompleted.addListener(handleCompleted, { urls: ['<all_urls>'] });
  }
  if (webNavigation && !webNavigation.onCommitted.hasListener(handleCommitted)) {
    webNavigation.onCommitted.addListener(handleCommitted);
    webNavigation.onErrorOccurred.addListener(handleNavigationError);
  }
}

/** Called from the worker's top level, after its other listeners. */
export function registerDiagnosis(): void {
  browser.tabs.onRemoved.addListener((tabId) => run(() => onTabRemoved(tabId)));
  try {
    browser.permissions.onAdded.addListener((added) => {
      if (!concernsDiagnosis(added)) return;
      addDiagnosisListeners();
      run(refreshBadge);
    });
    browser.permissions.onRemoved.addListener((removed) => {
      if (concernsDiagnosis(removed)) run(clearDiagnosis);
    });
    addDiagnosisListeners();
  } catch (error) {
    // An optional feature must never stop the worker from starting. Where these events cannot be
    // listened to (WXT's fake browser in unit tests has them but throws), diagnosis stays off.
    console.warn('Page diagnosis is unavailable:', error instanceof Error ? error.message : '');
  }
}
