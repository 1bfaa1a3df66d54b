import { useMemo } from 'preact/hooks';
import { ApiError } from '@/lib/api/errors';
import { createViewCache } from '@/lib/cache/view-cache';
import { endTemporaryAllowsFor } from '@/lib/diagnosis/temporary-allow';
import { journaledOptionsClient } from '@/lib/history';
import { t } from '@/lib/i18n';
import type { SettingChange } from '@/lib/messaging/protocol';
import { lookupPublicIpv4 } from '@/lib/network/ip-lookup';
import { followDirectEdits, notes, notesAccessFor } from '@/lib/notes';
import { dropQueuedChangesUndoing, dropQueuedSettingChanges } from '@/lib/outbox';
import { dynamicIpSettingsItem } from '@/lib/settings/storage';
import { useConfiguredClient } from '../useConfiguredClient';
import { useStoredValue } from '../useStoredValue';
import { AccountManagement, type AccountView } from './AccountManagement';
import type { AccountServices, ListChangeReport } from './account-context';

type Lookup = NonNullable<AccountServices['lookupPublicIp']>;

/**
 * The same lookup as the worker's registration (same URLs, same parsing), rebuilt when the
 * lookup URLs change so the mark follows the settings. `atOnce` is whether the Networks section
 * may look the address up as soon as it opens: only while dynamic IP registration is on, which
 * asks the lookup services anyway. Otherwise the page asks them only when the user says so.
 */
function usePublicIpLookup(): { lookup: Lookup | undefined; atOnce: boolean } {
  const settings = useStoredValue(dynamicIpSettingsItem, null);
  // Other dynamic IP settings (interval, label) change nothing here: no new lookup for them, so the
  // lookup is rebuilt only when the URLs change.
  const urlsKey = settings === null ? null : JSON.stringify(settings.lookupUrls);
  const lookup = useMemo((): Lookup | undefined => {
    if (settings === null) return undefined;
    const urls = settings.lookupUrls;
    return async () => {
      const result = await lookupPublicIpv4(urls, fetch.bind(globalThis));
      if (!result.ok) throw new ApiError('network', result.message);
      return result.ip;
    };
  }, [urlsKey]);
  return { lookup, atOnce: settings?.enabled ?? false };
}

/** Account management for the saved settings; until a key is saved, it says what to do. */
export function AccountPanel({ view }: { view?: AccountView }) {
  const configured = useConfiguredClient();
  const publicIp = usePublicIpLookup();
  const account = configured.state === 'ready' ? configured.account.id : null;
  const readyClient = configured.state === 'ready' ? configured.client : null;
  // Every change made here is this browser's in History's "What changed" (lib/history/journal.ts).
  const client = useMemo(
    () => (readyClient === null || account === null ? null : journaledOptionsClient(readyClient, account)),
    [readyClient, account],
  );
  // The popup reads its lists and profiles from this cache: keep it in step with changes made here.
  const cacheHooks = useMemo(() => {
    if (account === null) return {};
    const cache = createViewCache();
    return {
      onListChanged: async (report: ListChangeReport) => {
        // The edit went to the service directly, past the worker: nothing there follows it. An
        // older one-click change still queued for these domains must not undo it later, nor must
        // the end of a temporary allow of one of them (lib/diagnosis/temporary-allow.ts).
        const edits = report.changes.map((change) => ({ ...change, profile: report.profile }));
        await Promise.all([
          cache.applyChanges(report.scope, account, report.changes),
          dropQueuedChangesUndoing(account, edits),
          endTemporaryAllowsFor(account, edits),
          // What was added here, and what was removed (its note goes with it): lib/notes.
          followDirectEdits(notes, account, report.scope, report.changes),
        ]);
      },
      onSettingChanged: (change: SettingChange) => dropQueuedSettingChanges(account, change).then(() => {}),
      entryNotes: notesAccessFor(notes, account),
      onProfilesListed: (profiles: readonly string[]) =>
        cache.saveProfiles(account, [...profiles]).then(() => {}),
    };
  }, [account]);

  if (configured.state === 'loading') return null;
  if (configured.state === 'no-key' || client === null) {
    return (
      <section aria-labelledby="account-heading" class="account-missing">
        <h2 id="account-heading">{t('options.account.heading')}</h2>
        <p>{t('options.account.missingKey')}</p>
      </section>
    );
  }
  return (
    <AccountManagement
      view={view}
      client={client}
      lookupPublicIp={publicIp.lookup}
      lookUpPublicIpAtOnce={publicIp.atOnce}
      {...cacheHooks}
    />
  );
}
