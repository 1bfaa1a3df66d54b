/**
 * Checks the Dynamic IP section's form before anything is stored, and says which origins the
 * IP lookups need permission for. Pure: the options page and its tests share it.
 */
import { type ApiForm, capabilitiesOf } from '@/lib/api/forms';
import { t } from '@/lib/i18n';
import { DYNAMIC_IP_INTERVAL, type DynamicIpSettings } from '@/lib/settings/storage';
import {
  hasUserInfo,
  invalid,
  isPlausibleHostname,
  LOOPBACK_HOST,
  quoteInput,
  type Validation,
  valid,
  validateNetworkLabel,
  validateProfileReference,
} from '@/lib/validation';

export interface DynamicIpDraft {
  enabled: boolean;
  interval: string;
  label: string;
  profile: string;
  firstLookupUrl: string;
  /** More lookup URLs, one per line. */
  moreLookupUrls: string;
  removePrevious: boolean;
}

const MAX_LOOKUP_URLS = 10;

export function draftFromSettings(settings: DynamicIpSettings): DynamicIpDraft {
  return {
    enabled: settings.enabled,
    interval: String(settings.intervalMinutes),
    label: settings.label,
    profile: settings.profile,
    firstLookupUrl: settings.lookupUrls[0] ?? '',
    moreLookupUrls: settings.lookupUrls.slice(1).join('\n'),
    removePrevious: settings.removePrevious,
  };
}

/** An IP lookup URL: https, or http on this computer (the answer decides what gets registered). */
export function validateLookupUrl(input: string): Validation {
  const trimmed = input.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return invalid(t('networkForm.notUrl', { input: quoteInput(trimmed) }));
  }
  if (url.username !== '' || url.password !== '' || hasUserInfo(trimmed))
    return invalid(t('networkForm.credentials'));
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !isPlausibleHostname(url.hostname))
    return invalid(t('networkForm.noServer', { input: quoteInput(trimmed) }));
  if (url.protocol === 'https:') return valid(url.href);
  if (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)) return valid(url.href);
  return invalid(t('networkForm.useHttps', { input: quoteInput(trimmed) }));
}

/**
 * `profile` is kept as typed in Form B, where it is not used: switching back to Form A finds it.
 */
export function checkDynamicIpDraft(draft: DynamicIpDraft, form: ApiForm): Validation<DynamicIpSettings> {
  const interval = Number(draft.interval.trim());
  if (
    !/^\d+$/.test(draft.interval.trim()) ||
    interval < DYNAMIC_IP_INTERVAL.min ||
    interval > DYNAMIC_IP_INTERVAL.max
  ) {
    return invalid(t('networkForm.interval', { min: DYNAMIC_IP_INTERVAL.min, max: DYNAMIC_IP_INTERVAL.max }));
  }
  const label = validateNetworkLabel(draft.label);
  if (!label.ok) return label;
  let profile = draft.profile.trim() || 'default';
  if (capabilitiesOf(form).profileSelection) {
    const checked = validateProfileReference(profile);
    if (!checked.ok) return checked;
    profile = checked.value;
  }
  const rawUrls = [draft.firstLookupUrl, ...draft.moreLookupUrls.split('\n')]
    .map((url) => url.trim())
    .filter(Boolean);
  if (rawUrls.length === 0) return invalid(t('networkForm.noUrl'));
  if (rawUrls.length > MAX_LOOKUP_URLS)
    return invalid(t('networkForm.tooManyUrls', { max: MAX_LOOKUP_URLS }));
  const lookupUrls: string[] = [];
  for (const raw of rawUrls) {
    const checked = validateLookupUrl(raw);
    if (!checked.ok) return checked;
    if (!lookupUrls.includes(checked.value)) lookupUrls.push(checked.value);
  }
  return valid({
    enabled: draft.enabled,
    intervalMinutes: interval,
    label: label.value,
    profile,
    lookupUrls,
    removePrevious: draft.removePrevious,
  });
}

/**
 * Host permissions the lookups need (`https://host/*`). Loopback needs none: a local test server
 * answers with CORS headers.
 */
export function lookupPermissionOrigins(urls: readonly string[]): string[] {
  const remote = urls.map((raw) => new URL(raw)).filter((url) => !LOOPBACK_HOST.test(url.hostname));
  return [...new Set(remote.map((url) => `${url.origin}/*`))];
}
