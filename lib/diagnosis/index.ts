/**
 * Page diagnosis: which hosts of a page failed the way a DNS filter makes them fail, per tab, and
 * temporary allow. Opt-in ("Diagnose pages" on the options page), with optional permissions.
 *
 * The worker records failures (events.ts) into `failedHostsItem` (storage.session); the popup
 * reads that item for its "Failed hosts on this page" list and the verdict's "probably blocked by
 * the filter"; the badge counts the hosts of each tab. Temporary allows live in
 * `temporaryAllowsItem` and end through the outbox (temporary-allow.ts).
 */
export { classifyFailure, describeFailure, type FailureKind, isSinkholeAddress } from './classify';
export {
  type CommitDetails,
  type DiagnosisEventDeps,
  type ErrorDetails,
  onCommitted,
  onRequestError,
  onTabRemoved,
} from './events';
export { DIAGNOSIS_API_PERMISSIONS, DIAGNOSIS_HOST_PERMISSIONS, diagnosisManifestEntries } from './manifest';
export { concernsDiagnosis, DIAGNOSIS_PERMISSIONS, diagnosisActive, diagnosisGranted } from './permissions';
export { clearAllRecords, type RecordChange, recordForPage } from './records';
export {
  expireTemporaryAllows,
  findTemporaryAllow,
  forgetTemporaryAllowFor,
  scheduleExpiry,
  startTemporaryAllow,
  TEMPORARY_ALLOW_ALARM,
  TEMPORARY_ALLOW_CHOICES,
  type TemporaryAllowDeps,
  timeLeftText,
} from './temporary-allow';
