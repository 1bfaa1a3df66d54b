/**
 * What a page says when a stored value could not be read (lib/settings/item.ts): the values a
 * person would miss, by the name they know them by. Cached views and the worker's own bookkeeping
 * are left out: they are fetched or made again without anyone noticing.
 */
import { type MessageKey, t } from '@/lib/i18n';
import type { ItemKey } from './item';

const LABELS: Record<string, MessageKey> = {
  'local:apiKey': 'stored.connection',
  'local:apiKeyFingerprint': 'stored.connection',
  'local:connection': 'stored.connection',
  'local:accounts': 'stored.accounts',
  'local:accountKeys': 'stored.accounts',
  'local:policyAccounts': 'stored.accounts',
  'local:outbox': 'stored.outbox',
  'local:outboxSettled': 'stored.outbox',
  'local:dynamicIp': 'stored.dynamicIp',
  'local:dynamicIpOutcome': 'stored.dynamicIp',
  'local:dynamicIpRegistered': 'stored.dynamicIp',
  'local:addedTlds': 'stored.remembered',
  'local:defaultBlock': 'stored.remembered',
  'local:deletedLogDays': 'stored.remembered',
  'local:lastLogDump': 'stored.remembered',
  'local:temporaryAllows': 'stored.temporaryAllows',
  'local:unbreakSessions': 'stored.temporaryAllows',
  'local:chosenProfile': 'stored.preferences',
  'local:managedProfile': 'stored.preferences',
  'local:contextMenu': 'stored.preferences',
  'local:diagnosis': 'stored.preferences',
  'local:theme': 'stored.preferences',
  'local:profileGroups': 'profileGroups.stored',
  'local:schedules': 'schedules.heading',
};

/** The sentence for these keys, or null when none of them is worth a word. */
export function unreadableMessage(keys: readonly ItemKey[]): string | null {
  const labels = [...new Set(keys.map((key) => LABELS[key]).filter((label) => label !== undefined))];
  if (labels.length === 0) return null;
  return t('stored.unreadable', { what: labels.map((label) => t(label as 'stored.connection')).join(', ') });
}
