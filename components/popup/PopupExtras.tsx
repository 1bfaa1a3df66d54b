/**
 * The parts of the popup loaded once the verdict is on screen (PopupApp's `loadExtras`): the
 * account switcher, the registration warning, the schedule line and the notice on a change to a
 * domain a schedule owns, unbreak this page, page diagnosis's failed hosts, and the choice of
 * several profiles (docs/several-profiles.md).
 * Each waits for a storage read of its own before it shows anything, so loading it later moves
 * nothing on screen; left out of the first module graph, they no longer delay the verdict
 * (docs/architecture.md, "The popup's start path").
 */
export { popupChangesAllowed } from '@/lib/policy/popup';
export { ScheduleOwnedNotice } from '../ScheduleOwnedNotice';
export { PageDiagnosisPanel } from './PageDiagnosisPanel';
export { PopupAccountSwitcher } from './PopupAccountSwitcher';
export { RegistrationWarning } from './RegistrationWarning';
export { ScheduleLine } from './ScheduleLine';
export { SeveralProfilesPanel } from './SeveralProfilesPanel';
export { UnbreakPanel } from './UnbreakPanel';
