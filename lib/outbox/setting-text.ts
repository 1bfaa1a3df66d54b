/**
 * A queued setting change in words (docs/schedules.md, "Sending"): light enough for the popup,
 * which lists the changes still waiting without loading the outbox itself.
 */
import { attempts } from '@/lib/api/attempts';
import { categoryLabel } from '@/lib/api/categories';
import { t } from '@/lib/i18n';
import type { SettingChange } from '@/lib/messaging/protocol';
import { sourceName } from '@/lib/notes/describe';

/** What a setting change does, completing "Could not …" and "Waiting to …". */
export function describeSetting(change: SettingChange): string {
  return change.op === 'set-category'
    ? attempts.setCategoryBlocked(categoryLabel(change.category), change.blocked, change.profile)
    : attempts.setDefaultBlock(change.enabled, change.profile);
}

/** The same with who asked for it: "block the category Gaming (from a schedule)". */
export function describeSettingWithSource(change: SettingChange): string {
  return t('outbox.fromSource', { attempted: describeSetting(change), source: sourceName(change.source) });
}
