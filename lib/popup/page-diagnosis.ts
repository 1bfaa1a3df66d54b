/**
 * Page diagnosis in the popup, without Preact: which record of failed hosts belongs to the page
 * the popup shows, and what today's statistics say of each failed host. The worker records the
 * failures (lib/diagnosis); the panel (components/popup/PageDiagnosisPanel.tsx) shows them.
 */
import { recordForPage } from '@/lib/diagnosis/records';
import { canonicalHost } from '@/lib/filtering/domain-index';
import { t, tn } from '@/lib/i18n';
import type { TabFailures } from '@/lib/settings/storage';
import type { ReadyState } from './state';

export interface PageDiagnosis {
  enabled: boolean;
  /** The failures of the page the tab shows, or null (none recorded, or diagnosis off). */
  record: TabFailures | null;
}

export const DIAGNOSIS_OFF: PageDiagnosis = { enabled: false, record: null };

/**
 * What the worker recorded for the page on `host`, from the record of its tab (null: none). Off
 * until both the setting and the record are read (undefined), so the panel never shows "nothing
 * failed" before it knows.
 */
export function pageDiagnosisOf(
  settings: { enabled: boolean } | null,
  tabRecord: TabFailures | null | undefined,
  host: string,
): PageDiagnosis {
  if (settings === null || tabRecord === undefined) return DIAGNOSIS_OFF;
  const { enabled } = settings;
  return { enabled, record: enabled ? recordForPage(tabRecord, host) : null };
}

/** The failed hosts the panel lists: none while diagnosis is off. */
export function failedHostsOf(diagnosis: PageDiagnosis): TabFailures['hosts'] {
  return diagnosis.enabled ? (diagnosis.record?.hosts ?? []) : [];
}

export type Statistics =
  | { state: 'known'; blocked: ReadonlyMap<string, number> }
  | { state: 'loading' }
  | { state: 'unavailable' };

/**
 * Today's statistics as the controller holds them: the verdict's own, or the ones the panel asked
 * for (`requestStatistics`), fetched through the same path.
 */
export function statisticsOf(state: Pick<ReadyState, 'blockedToday' | 'statsProblem'>): Statistics {
  if (state.blockedToday !== null) return { state: 'known', blocked: state.blockedToday.value };
  return state.statsProblem === null ? { state: 'loading' } : { state: 'unavailable' };
}

export function statisticsText(host: string, statistics: Statistics): string {
  if (statistics.state === 'loading') return t('popup.failedHosts.statsChecking');
  if (statistics.state === 'unavailable') return t('popup.failedHosts.statsUnavailable');
  const count = statistics.blocked.get(canonicalHost(host)) ?? 0;
  if (count === 0) return t('popup.failedHosts.statsNone');
  return tn('popup.failedHosts.statsConfirm', count);
}
