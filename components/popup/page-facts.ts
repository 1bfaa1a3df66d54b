/**
 * What the popup's first view needs besides the controller's state: page diagnosis's record of the
 * page (it can settle the verdict) and the running temporary allows. Kept apart from the panels
 * that show them in detail (PopupExtras.tsx), which load after the verdict is shown.
 */
import { useMemo } from 'preact/hooks';
import { type PageDiagnosis, pageDiagnosisOf } from '@/lib/popup/page-diagnosis';
import type { ReadyState } from '@/lib/popup/state';
import type { Followable } from '@/lib/settings/follow';
import {
  diagnosisSettingsItem,
  failedHostsOfTabItem,
  type TabFailures,
  type TemporaryAllow as TemporaryAllowEntry,
  temporaryAllowsItem,
} from '@/lib/settings/storage';
import { useStoredValue } from '../useStoredValue';

/** A popup without a tab has no record. */
const NO_TAB: Followable<TabFailures | null> = { getValue: async () => null, watch: () => () => {} };

/** What the worker recorded for the page the popup shows, following new failures while it is open. */
export function usePageDiagnosis(state: Pick<ReadyState, 'host' | 'tabId'>): PageDiagnosis {
  const { host, tabId } = state;
  const settings = useStoredValue(diagnosisSettingsItem, null);
  // Its tab's record only: failures in other tabs neither reach nor re-render this popup.
  const tabRecordItem = useMemo(() => (tabId === undefined ? NO_TAB : failedHostsOfTabItem(tabId)), [tabId]);
  const tabRecord = useStoredValue(tabRecordItem, undefined);
  return useMemo(() => pageDiagnosisOf(settings, tabRecord, host), [settings, tabRecord, host]);
}

/** The running temporary allows, following the worker's changes. */
export function useTemporaryAllows(): readonly TemporaryAllowEntry[] {
  return useStoredValue(temporaryAllowsItem, []);
}
