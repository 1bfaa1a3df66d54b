/**
 * Taking a snapshot of the whole account through the API client (docs/history.md, "The
 * snapshot"): the profile list, and per scope the blocked categories, both lists and the
 * networks, read from the service; the TLD blocks and default block as this browser set them
 * (`addedTldsItem`, `defaultBlockItem`), because the API can neither list the one nor read the
 * other back.
 */
import { ACCOUNT_SCOPE, capabilitiesOf } from '@/lib/api/forms';
import type { ApiForm, DnsFilterApi } from '@/lib/api/types';
import {
  canonicalEntries,
  DEFAULT_BLOCK_ON,
  networkEntry,
  type Sections,
  type Snapshot,
  type SnapshotReason,
  sectionKey,
} from './model';

/** What this browser set, per scope key (`<form>:<scope>`, lib/settings/storage.ts). */
export interface KnownHere {
  tlds: Record<string, readonly string[]>;
  defaultBlock: Record<string, { enabled: boolean }>;
}

/** The scope of a `<form>:<scope>` key of `form`, or null for another form's key. */
function scopeOfKey(form: ApiForm, key: string): string | null {
  const prefix = `${form}:`;
  return key.startsWith(prefix) ? key.slice(prefix.length) : null;
}

export async function takeSnapshot(
  client: DnsFilterApi,
  known: KnownHere,
  reason: SnapshotReason,
  now: () => number = Date.now,
): Promise<Snapshot> {
  const sections: Sections = {};
  const form = client.form;
  const byProfile = capabilitiesOf(form).profileSelection;
  const profiles = byProfile ? canonicalEntries(await client.listProfiles()) : [ACCOUNT_SCOPE];
  if (byProfile) sections[sectionKey('profiles', '')] = profiles;

  for (const list of ['whitelist', 'blocklist'] as const) {
    const all = await client.listDomainsByProfile(list);
    for (const scope of profiles) sections[sectionKey(list, scope)] = canonicalEntries(all[scope] ?? []);
    // Entries of a profile the profile list did not name are kept, not lost to the snapshot.
    for (const [scope, domains] of Object.entries(all)) {
      if (!profiles.includes(scope)) sections[sectionKey(list, scope)] = canonicalEntries(domains);
    }
  }
  for (const scope of profiles) {
    const categories = await client.listCategories(byProfile ? scope : undefined);
    sections[sectionKey('categories', scope)] = canonicalEntries(
      categories.filter((category) => category.blocked).map((category) => category.id),
    );
  }
  const networksByScope = new Map<string, string[]>(profiles.map((scope) => [scope, []]));
  for (const network of await client.listNetworks()) {
    const scope = byProfile ? (network.profile ?? 'default') : ACCOUNT_SCOPE;
    networksByScope.set(scope, [
      ...(networksByScope.get(scope) ?? []),
      networkEntry(network.ip, network.label),
    ]);
  }
  for (const [scope, entries] of networksByScope)
    sections[sectionKey('networks', scope)] = canonicalEntries(entries);

  for (const [key, tlds] of Object.entries(known.tlds)) {
    const scope = scopeOfKey(form, key);
    if (scope !== null) sections[sectionKey('tlds', scope)] = canonicalEntries(tlds);
  }
  for (const [key, state] of Object.entries(known.defaultBlock)) {
    const scope = scopeOfKey(form, key);
    if (scope !== null) sections[sectionKey('defaultBlock', scope)] = state.enabled ? [DEFAULT_BLOCK_ON] : [];
  }
  return { takenAt: now(), reason, sections };
}
