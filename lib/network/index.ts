/**
 * Dynamic IP re-registration. The options page reads `dynamicIpSettingsItem`,
 * `registrationOutcomeItem` (last outcome: time, IP, ok, message, consecutive failures) and
 * `registeredAddressesItem` from lib/settings/storage.ts, and asks the worker to run a
 * registration with `{ type: 'register-now' }` so Register now and the alarm share one path.
 */
export {
  type DynamicIpDeps,
  ensureRegistrationAlarm,
  REGISTRATION_ALARM,
  REGISTRATION_RETRY_ALARM,
  type RegistrationTrigger,
  registerOnce,
  registrationAlarmOf,
  registrationAlarmTarget,
  registrationLeaseOf,
  registrationRetryAlarmOf,
  syncRegistrationAlarms,
} from './dynamic-ip';
export { type LookupResult, lookupPublicIpv4, parseLookupAnswer } from './ip-lookup';
export {
  decideRegistration,
  type RegistrationFacts,
  registrationIsFailing,
  registrationRetryMinutes,
  runRegistration,
} from './registration';
