/**
 * What the popup's first view needs besides the controller's state: page diagnosis's record of the
 * page (it can settle the verdict) and the running temporary allows. Kept apart from the panels
 * that show them in detail (PopupExtras.tsx), which load after the verdict is shown.
 */
import { useMemo } from 'preact/hooks';
import { type PageDiagnosis, pageDiagnosisOf } from '@/lib/popup/page-diagnosis';
import type { ReadyState } from '@/lib/popup/state';
import {
  diagnosisSettingsItem,
  failedHostsItem,
  type TemporaryAllow as TemporaryAllowEntry,
  temporaryAllowsItem,
} from '@/lib/settings/storage';
import { useStoredValue } from '../useStoredValue';

/** What the worker recorded for the page the popup shows, following new failures while it is open. */
export function usePageDiagnosis(state: Pick<ReadyState, 'host' | 'tabId'>): PageDiagnosis {
  const settings = useStoredValue(diagnosisSettingsItem, null);
  const records = useStoredValue(failedHostsItem, null);
  const { host, tabId } = state;
  return useMemo(() => pageDiagnosisOf(settings, records, tabId, host), [settings, records, tabId, host]);
}

/** The running temporary allows, following the worker's changes. */
export function useTemporaryAllows(): readonly TemporaryAllowEntry[] {
  return useStoredValue(temporaryAllowsItem, []);
}
