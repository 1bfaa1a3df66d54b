/**
 * Page diagnosis: which hosts of a page failed the way a DNS filter makes them fail, per tab, and
 * temporary allow. Opt-in ("Diagnose pages" on the options page), with optional permissions.
 *
 * The worker records failures (events.ts) into `failedHostsOfTabItem` (storage.session, one key
 * per tab); the popup reads its tab's record for its "Failed hosts on this page" list and the
 * verdict's "probably blocked by the filter"; the badge counts the hosts of each tab. Temporary allows live in
 * `temporaryAllowsItem` and end through the outbox (temporary-allow.ts).
 */
export {
  type CommitDetails,
  type DiagnosisEventDeps,
  type ErrorDetails,
  onCommitted,
  onRequestError,
  onTabRemoved,
} from './events';
export { concernsDiagnosis, diagnosisActive } from './permissions';
export { clearAllRecords, recordsOfTabs, tabsWithRecords } from './records';
