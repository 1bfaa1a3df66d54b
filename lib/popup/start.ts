/**
 * The popup's start, to its first view: the tab, the stored settings and the scope's cached views,
 * read at once and overlapping; then the storage watches, and a refresh of what is stale.
 */

import { capabilitiesOf, profileFor } from '@/lib/api/forms';
import {
  type RememberedDomains,
  rememberedRegistrable,
  rememberRegistrable,
} from '@/lib/cache/registrable-domains';
import { hostnameFromUrl } from '@/lib/filtering/hostname';
import { identityOf, NO_KEY } from '@/lib/identity/identity';
import { notes } from '@/lib/notes';
import { outboxItem, registrableDomainsItem, scopeKey, settledChangesItem } from '@/lib/settings/storage';
import { whenIdle } from '@/lib/theme/theme';
import { type ControllerContext, ignoreHere, type PopupDeps, today } from './controller-context';
import type { TabAddress } from './read-tab';
import { refreshStale } from './refresh';
import { registrableDomainsOf } from './registrable';
import { readStartSettings } from './start-reads';
import type { PopupState } from './state';

export async function startToFirstView(ctx: ControllerContext): Promise<void> {
  const { deps, set, update } = ctx;
  // Everything overlaps, so the slowest alone sets the time to the verdict: reading the tab and
  // the stored settings (in one storage round trip), the scope's cached views as soon as the
  // settings name the scope, and, only for a host not seen before, asking the worker for its
  // registrable domain (for a known host, the answer is remembered).
  const stored = readStartSettings();
  const placing = Promise.all([
    deps.readTab().catch((): TabAddress => ({ id: undefined, url: undefined })),
    stored,
  ]).then(([tab, { rememberedDomains }]) => placeOf(deps, tab, rememberedDomains));
  // Awaited later or not at all (early returns): a failure meanwhile must not go unhandled.
  placing.catch(ignoreHere);
  const { key, keyFingerprint, connection, chosenProfile, timeoutMs } = await stored;
  // The key itself is needed only to call the service; the first view needs its fingerprint.
  ctx.clientSettings = async () => ({ key: await key(), connection, timeoutMs });
  const form = connection.form;
  const profile = profileFor(form, chosenProfile);
  const scope = scopeKey(form, profile);
  const hasKey = keyFingerprint !== NO_KEY;
  const account = hasKey ? identityOf({ origin: connection.baseUrl, form, keyFingerprint }).id : '';
  const cached = !hasKey
    ? null
    : Promise.all([
        // Only the entries that can cover the tab's host: a few kB, however long the lists.
        placing.then((place) =>
          place.host === null ? null : deps.cache.readLists(scope, account, [place.host]),
        ),
        capabilitiesOf(form).profileSelection ? deps.cache.readProfiles(account) : null,
        deps.cache.readBlockedToday(account, today(ctx)),
      ]);
  cached?.catch(ignoreHere);
  // Why the deciding entry is on its list (lib/notes): this account's one key, read alongside;
  // only the records of the host and its parent domains (the entries that can decide) are checked.
  const entryNotes = !hasKey
    ? undefined
    : notes
        .readSome(
          account,
          placing.then(
            ({ host }) =>
              (domain: string) =>
                host === domain || host?.endsWith(`.${domain}`) === true,
          ),
        )
        .catch(() => undefined);

  const [place, { addedTlds, defaultBlocks, outbox, settled }] = await Promise.all([placing, stored]);
  const firstView = (view: PopupState) => {
    set(view);
    deps.onFirstView?.();
  };
  if (place.host === null) return firstView({ phase: 'nothing-to-filter', unreadable: place.unreadable });
  if (cached === null) return firstView({ phase: 'no-key' });
  const { host, tabId } = place;
  const [[lists, profiles, blockedToday], registrable] = await Promise.all([cached, place.registrable]);
  const storedNotes = await entryNotes;
  firstView({
    phase: 'ready',
    host,
    tabId,
    registrable,
    form,
    profile,
    scope,
    account,
    profiles,
    lists,
    blockedToday,
    blockedTlds: addedTlds[scope] ?? [],
    defaultBlock: defaultBlocks[scope]?.enabled ?? false,
    outbox,
    settled,
    refreshing: false,
    problem: null,
    statsProblem: null,
    chosenDomain: undefined,
    change: { state: 'idle', message: '' },
    undo: null,
    ...(storedNotes === undefined ? {} : { entryNotes: storedNotes }),
  });
  // After the first view's render, queued as a microtask by `set`: Firefox sets up storage
  // events on the first watch, work that would otherwise come between the view and the verdict.
  await Promise.resolve();
  // Early, so a refusal can name the account shown should another become active meanwhile.
  whenIdle(() => void ctx.shownAccountId());
  ctx.disposers.push(
    outboxItem.watch((entries) => update({ outbox: entries })),
    settledChangesItem.watch((entries) => update({ settled: entries })),
    notes.follow(account, (entryNotes) => update({ entryNotes })),
  );
  await refreshStale(ctx);
}

/**
 * The tab's host and its registrable domain: remembered, or worked out with the Public Suffix
 * List (by the worker, which has it loaded) and then remembered. The verdict of a new host
 * waits for it, so the domain the buttons act on is never shown wrong first.
 */
function placeOf(deps: PopupDeps, tab: TabAddress, remembered: RememberedDomains) {
  const host = tab.url === undefined ? null : hostnameFromUrl(tab.url);
  if (host === null) return { host, unreadable: tab.url === undefined } as const;
  const tabId = tab.id;
  const known = rememberedRegistrable(remembered, host);
  if (known !== undefined) return { host, tabId, registrable: Promise.resolve(known) };
  const asked = registrableDomainsOf([host], deps.askWorkerForDomains ?? (async () => null));
  const registrable = asked.then(([found]) => {
    // A public suffix has no registrable domain: not remembered (the map holds domains), so an
    // opening on one asks again.
    if (found === null) return null;
    const domain = found ?? host;
    // Not awaited: a failed write only means the worker is asked again next time.
    registrableDomainsItem.setValue(rememberRegistrable(remembered, host, domain)).catch(ignoreHere);
    return domain;
  });
  return { host, tabId, registrable };
}
