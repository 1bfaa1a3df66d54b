/**
 * Everything the popup knows and does, without Preact: it reads the tab and the cached views at
 * once, answers from them, refreshes what is stale in the background, and sends one-click changes
 * to the worker's outbox. The view model (view.ts) derives what to show from its state
 * (state.ts); the components subscribe to it (components/popup/PopupApp.tsx).
 */

import { listName } from '@/lib/api/attempts';
import type { ClientSettings } from '@/lib/api/configured-client';
import { isApiError } from '@/lib/api/errors';
import { capabilitiesOf, profileFor } from '@/lib/api/forms';
import type { DnsFilterApi } from '@/lib/api/types';
import { localDate } from '@/lib/cache/freshness';
import { inverseChange, type Membership } from '@/lib/cache/list-changes';
import {
  type RememberedDomains,
  rememberedRegistrable,
  rememberRegistrable,
} from '@/lib/cache/registrable-domains';
import {
  type CachedView,
  isFreshView,
  listsCover,
  type Saving,
  type ViewCache,
} from '@/lib/cache/view-cache';
import { hostnameFromUrl } from '@/lib/filtering/hostname';
import { t } from '@/lib/i18n';
import { identityOf, NO_KEY } from '@/lib/identity/identity';
import type { ChangeOutcome, ListChange } from '@/lib/messaging/protocol';
import { notes, recordOf } from '@/lib/notes';
import {
  addedTldsItem,
  chosenProfileItem,
  defaultBlockItem,
  outboxItem,
  registrableDomainsItem,
  scopeKey,
  settledChangesItem,
} from '@/lib/settings/storage';
import { whenIdle } from '@/lib/theme/theme';
import type { TabAddress } from './read-tab';
import { type AskWorkerForDomains, registrableDomainsOf } from './registrable';
import { readShownAccountId } from './shown-account';
import { readStartSettings } from './start-reads';
import type { ChangeStatus, PopupState, Problem, ReadyState, UndoOffer } from './state';
import { statisticsNeeded } from './verdict-inputs';

type RemoteModule = typeof import('./remote');

export interface PopupDeps {
  readTab(): Promise<TabAddress>;
  cache: ViewCache;
  /** The API client and fetchers (./remote.ts; tests pass fakes). */
  loadRemote(): Promise<
    Pick<RemoteModule, 'refreshLists' | 'refreshProfiles' | 'refreshBlockedToday'> & {
      createConfiguredClient(deps?: { settings?: ClientSettings }): Promise<DnsFilterApi | null>;
    }
  >;
  /** Sends `{ type: 'submit-change' }` to the worker, with `sentWith`. Never rejects. */
  submitChange(change: ListChange, sentWith: SubmitOptions): Promise<ChangeOutcome>;
  /**
   * Sends `{ type: 'retry-outbox' }`: the worker sends the waiting changes now, ignoring their
   * backoff. Resolves with how many still wait, or null when the worker did not answer. Never rejects.
   */
  retryOutbox?(): Promise<number | null>;
  /** The worker's registrable domains of hosts (Public Suffix List); loaded here when it has no answer. */
  askWorkerForDomains?: AskWorkerForDomains;
  /** Called once the first view is set, when the storage reads it needed are done. */
  onFirstView?(): void;
  now(): number;
}

/** What a change request carries besides the change (lib/messaging/protocol.ts 'submit-change'). */
export interface SubmitOptions {
  /** The account the popup shows (its stable id, ./shown-account.ts): the worker refuses it for another. */
  accountId: string;
  /** The user typed the domain, a public suffix, to confirm adding it. */
  publicSuffixConfirmed?: true;
}

/** What a click adds to a change request (the account is the popup's). */
type Confirmation = Omit<SubmitOptions, 'accountId'>;

export function createPopupController(deps: PopupDeps) {
  let state: PopupState = { phase: 'starting' };
  const listeners = new Set<() => void>();
  const disposers: Array<() => void> = [];
  /** Bumped on each profile switch: answers for an earlier scope are dropped. */
  let generation = 0;
  /** The client's settings as read at start (the key when first needed), so a refresh need not read them again. */
  let clientSettings: (() => Promise<ClientSettings>) | undefined;
  /** Today's statistics on their way (fetchStatistics), so they are never asked for twice at once. */
  let statsFetch: Promise<unknown> | null = null;
  /** Page diagnosis asked for today's statistics (requestStatistics): it asks once per opening. */
  let statisticsRequested = false;
  /** The stable id of the account the view shows (./shown-account.ts), once asked for. */
  let shownAccount: Promise<string | null> | null = null;
  /**
   * Read when the popup is idle after its first view, or by the first request that needs it if
   * that comes first: either way checked against the identity the view was read for.
   */
  const shownAccountId = (): Promise<string | null> => {
    const current = ready();
    if (current === null) return Promise.resolve(null);
    shownAccount ??= readShownAccountId(current.account).catch(() => null);
    return shownAccount;
  };
  /**
   * Hosts besides the tab's whose list entries are read (page diagnosis's failed hosts): the
   * cached lists are read only for the hosts shown (lib/cache/list-buckets.ts).
   */
  const otherListHosts = new Set<string>();
  const listHosts = (current: ReadyState) => [current.host, ...otherListHosts];

  const set = (next: PopupState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const ready = (): ReadyState | null => (state.phase === 'ready' ? state : null);
  const update = (patch: Partial<ReadyState>) => {
    const current = ready();
    if (current) set({ ...current, ...patch });
  };

  async function start(): Promise<void> {
    // Everything overlaps, so the slowest alone sets the time to the verdict: reading the tab and
    // the stored settings (in one storage round trip), the scope's cached views as soon as the
    // settings name the scope, and, only for a host not seen before, asking the worker for its
    // registrable domain (for a known host, the answer is remembered).
    const stored = readStartSettings();
    const placing = Promise.all([
      deps.readTab().catch((): TabAddress => ({ id: undefined, url: undefined })),
      stored,
    ]).then(([tab, { rememberedDomains }]) => placeOf(tab, rememberedDomains));
    // Awaited later or not at all (early returns): a failure meanwhile must not go unhandled.
    placing.catch(ignoreHere);
    const { key, keyFingerprint, connection, chosenProfile, timeoutMs } = await stored;
    // The key itself is needed only to call the service; the first view needs its fingerprint.
    clientSettings = async () => ({ key: await key(), connection, timeoutMs });
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
          deps.cache.readBlockedToday(account, today()),
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
    whenIdle(() => void shownAccountId());
    disposers.push(
      outboxItem.watch((entries) => update({ outbox: entries })),
      settledChangesItem.watch((entries) => update({ settled: entries })),
      notes.follow(account, (entryNotes) => update({ entryNotes })),
    );
    await refreshStale();
  }

  const today = () => localDate(new Date(deps.now()));
  /** Shown at once; the storage write finishes on its own (a failed one means a fetch next time). */
  const shown = <T>({ view, saved }: Saving<T>): CachedView<T> => {
    saved.catch(ignoreHere);
    return view;
  };

  /**
   * The tab's host and its registrable domain: remembered, or worked out with the Public Suffix
   * List (by the worker, which has it loaded) and then remembered. The verdict of a new host
   * waits for it, so the domain the buttons act on is never shown wrong first.
   */
  function placeOf(tab: TabAddress, remembered: RememberedDomains) {
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

  /** The API client and fetchers, with the settings read at start; null while no key is set. */
  async function connect(): Promise<Connection | null> {
    const remote = await deps.loadRemote();
    const api = await remote.createConfiguredClient(
      clientSettings ? { settings: await clientSettings() } : {},
    );
    return api === null ? null : { remote, api };
  }

  /**
   * Today's statistics, through the one path both the verdict and page diagnosis use: fetched
   * once at a time (a second ask while one is on its way waits for that one), kept in the state
   * and the view cache. `current` drops an answer for a scope the user has left.
   */
  function fetchStatistics(connection: Connection, account: string, current: () => ReadyState | null) {
    statsFetch ??= connection.remote
      .refreshBlockedToday({ api: connection.api, cache: deps.cache, account }, today())
      .then(
        (saving) => current() && update({ blockedToday: shown(saving), statsProblem: null }),
        (error: unknown) => current() && update({ statsProblem: problemOf(error).message }),
      )
      .finally(() => {
        statsFetch = null;
      });
    return statsFetch;
  }

  /**
   * Fetches only what is stale or missing: nothing at all when every view is fresh. The lists
   * come first; today's statistics only when the lists leave the verdict open.
   */
  async function refreshStale(force = false): Promise<void> {
    const initial = ready();
    if (initial === null || initial.refreshing) return;
    const fresh = (view: CachedView<unknown> | null) => !force && isFreshView(view, deps.now());
    const needLists = !fresh(initial.lists);
    const needProfiles = capabilitiesOf(initial.form).profileSelection && !fresh(initial.profiles);
    const statsStale = !fresh(initial.blockedToday);
    // Today's statistics settle the verdict only when the lists leave it open: predicted from the
    // lists at hand (stale ones too), assumed when none are cached. Fetched alongside the lists,
    // the fresh verdict waits for one round trip instead of two; and as they cover the whole
    // account, a fetch the lists turn out not to need still serves the next sites.
    const statsLikelyNeeded = statsStale && (initial.lists === null || statisticsNeeded(initial));
    if (!needLists && !needProfiles && !statsLikelyNeeded) return;

    const myGeneration = generation;
    const current = () => {
      const now = ready();
      return now !== null && generation === myGeneration ? now : null;
    };
    update({ refreshing: true, problem: null });
    let connection: Connection | null;
    try {
      connection = await connect();
    } catch (error) {
      update({ refreshing: false, problem: problemOf(error) });
      return;
    }
    if (connection === null) return set({ phase: 'no-key' });
    const { remote, api } = connection;
    const target = { api, cache: deps.cache, account: initial.account };

    // The picker keeps what it has meanwhile: the verdict does not depend on the profiles, so
    // they are asked for once the verdict's own calls are answered, not in competition with them.
    const refreshProfiles = () =>
      remote
        .refreshProfiles(target)
        .then((saving) => current() && update({ profiles: shown(saving) }), ignoreHere);
    const fetchStats = () => fetchStatistics(connection, initial.account, current);
    let statsDone = statsLikelyNeeded ? fetchStats() : undefined;
    try {
      if (needLists) {
        const lists = shown(await remote.refreshLists(target, initial.scope, initial.profile));
        if (!current()) return;
        update({ lists });
      }
      const afterLists = current();
      if (statsDone === undefined && afterLists && statsStale && statisticsNeeded(afterLists)) {
        statsDone = fetchStats();
      }
    } catch (error) {
      if (current()) update({ problem: problemOf(error) });
    } finally {
      await statsDone;
      if (needProfiles) await refreshProfiles();
      if (current()) update({ refreshing: false });
    }
  }

  /**
   * Page diagnosis shows what today's statistics say of each failed host. When the verdict did
   * not need them (the lists settled it) and none are cached, they are fetched once, through the
   * same path as the verdict's.
   */
  async function requestStatistics(): Promise<void> {
    const initial = ready();
    if (initial === null || initial.blockedToday !== null || statsFetch !== null || statisticsRequested)
      return;
    statisticsRequested = true;
    let connection: Connection | null;
    try {
      connection = await connect();
    } catch (error) {
      update({ statsProblem: problemOf(error).message });
      return;
    }
    if (connection === null) return;
    await fetchStatistics(connection, initial.account, ready);
  }

  /**
   * Reads the cached list entries of more hosts (page diagnosis's), which the lists read at start
   * may not hold: until then their membership is unknown (verdict-inputs.ts `membershipOf`).
   */
  async function readListsFor(hosts: readonly string[]): Promise<void> {
    // Kept for every later read (after a change, another profile), even when the lists held now
    // cover them: a view just fetched holds the whole lists, one read after a change does not.
    for (const host of hosts) otherListHosts.add(host);
    const current = ready();
    const held = current?.lists;
    if (!current || !held || hosts.every((host) => listsCover(held.value, host))) return;
    const lists = await deps.cache
      .readLists(current.scope, current.account, listHosts(current))
      .catch(() => null);
    // Kept only while nothing replaced the lists meanwhile (a fetch, a change, another profile).
    if (lists !== null && ready()?.lists === held) update({ lists });
  }

  async function chooseProfile(profile: string): Promise<void> {
    const current = ready();
    if (current === null || !capabilitiesOf(current.form).profileSelection || profile === current.profile)
      return;
    generation++;
    const scope = scopeKey('A', profile);
    const [lists, tlds, defaultBlocks] = await Promise.all([
      deps.cache.readLists(scope, current.account, listHosts(current)),
      addedTldsItem.getValue(),
      defaultBlockItem.getValue(),
      chosenProfileItem.setValue(profile),
    ]);
    update({
      profile,
      scope,
      lists,
      blockedTlds: tlds[scope] ?? [],
      defaultBlock: defaultBlocks[scope]?.enabled ?? false,
      refreshing: false,
      problem: null,
      change: { state: 'idle', message: '' },
      undo: null,
    });
    await refreshStale();
  }

  /**
   * Sends one change and reports its outcome. `before` is where the domain was, so Undo can put
   * it back; `undoDescription` is offered unless the change failed.
   */
  async function submit(
    change: ListChange,
    progress: string,
    next: { before: Membership; undo: Omit<UndoOffer, 'change'> } | null,
    confirmation: Confirmation = {},
  ): Promise<void> {
    const current = ready();
    if (current === null || current.change.state === 'running') return;
    update({ change: { state: 'running', message: progress }, undo: null });
    const accountId = await shownAccountId();
    if (accountId === null) {
      // The key or service changed since the view was read: it shows an account that is not active.
      update({ change: { state: 'failed', message: t('popup.accountChanged') } });
      return;
    }
    const outcome = await deps.submitChange(change, { ...confirmation, accountId });
    if (outcome.state === 'delivered') {
      // The cached view follows at once; the next refresh confirms it.
      await deps.cache.applyChanges(current.scope, current.account, [change]);
      const lists = await deps.cache.readLists(current.scope, current.account, listHosts(current));
      if (ready()?.scope === current.scope) update({ lists });
    }
    const undo =
      outcome.state !== 'failed' && next !== null
        ? { change: inverseChange(change, next.before), ...next.undo }
        : null;
    // A waiting change is shown from the outbox (what was asked, one line): read now rather than
    // when the storage watch reports it, so the popup never shows it without that line.
    const outbox = outcome.state === 'pending' ? { outbox: await outboxItem.getValue() } : {};
    update({ ...outbox, change: { state: outcome.state, message: outcome.message }, undo });
  }

  return {
    getState: (): PopupState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Never rejects: a failure shows as the `failed` phase. */
    start: () =>
      start().catch((error: unknown) => {
        if (state.phase === 'starting') set({ phase: 'failed', message: problemOf(error).message });
      }),
    refresh: () => refreshStale(true),
    requestStatistics,
    /**
     * The stable id of the account the popup shows, for the requests the panels send themselves
     * (temporary allow, unbreak); null when another account became active since it was read.
     */
    shownAccountId,
    /**
     * Registrable domains of other hosts (page diagnosis's failed hosts), asked of the worker like
     * the page's own; never rejects.
     */
    registrableDomainsOf: (hosts: readonly string[]) => {
      void readListsFor(hosts);
      return registrableDomainsOf(hosts, deps.askWorkerForDomains ?? (async () => null));
    },
    chooseProfile,
    chooseDomain(domain: string) {
      update({ chosenDomain: domain });
    },
    /**
     * One click: add to or remove from a list the domain the popup shows. `sentWith` says the user
     * typed the domain, a public suffix, to confirm it (view.ts `publicSuffix`).
     */
    act(
      op: ListChange['op'],
      list: ListChange['list'],
      domain: string,
      before: Membership,
      sentWith: Confirmation = {},
    ) {
      const current = ready();
      if (current === null) return Promise.resolve();
      const change: ListChange = {
        op,
        list,
        domain,
        profile: current.profile,
        source: 'popup',
        page: current.host,
      };
      const words = { domain, list: listName(list) };
      const { profile } = current;
      const progress =
        profile === undefined
          ? t(op === 'add' ? 'popup.adding' : 'popup.removing', words)
          : t(op === 'add' ? 'popup.addingProfile' : 'popup.removingProfile', { ...words, profile });
      let undo: Omit<UndoOffer, 'change'>;
      if (before === 'none') {
        undo = { description: t('popup.undoTakeOff', words), progress: t('popup.undoingTakeOff', words) };
      } else {
        const back = { domain, list: listName(before) };
        undo = { description: t('popup.undoPutBack', back), progress: t('popup.undoingPutBack', back) };
        const entry = { scope: current.scope, list: before, domain };
        const record = current.entryNotes && recordOf(current.entryNotes, entry);
        if (record) undo.record = record;
      }
      if (sentWith.publicSuffixConfirmed) undo.publicSuffixConfirmed = true;
      return submit(change, progress, { before, undo }, sentWith);
    },
    /**
     * "Send now" on the changes waiting for this domain: the user need not wait for the next
     * automatic attempt once the service is back. Says what became of each of them.
     */
    async sendPendingNow(ids: readonly string[]): Promise<void> {
      const current = ready();
      if (current === null || current.change.state === 'running' || !deps.retryOutbox) return;
      update({ change: { state: 'running', message: t('popup.sendingPending') }, undo: null });
      const left = await deps.retryOutbox();
      const [outbox, settled] = await Promise.all([outboxItem.getValue(), settledChangesItem.getValue()]);
      const stillWaiting = outbox.filter((entry) => ids.includes(entry.id));
      const done = settled.filter((entry) => ids.includes(entry.id));
      let change: ChangeStatus;
      if (left === null) {
        change = { state: 'failed', message: t('popup.workerNoAnswerPending') };
      } else if (stillWaiting.length > 0) {
        const reason = stillWaiting[0]?.lastError ?? outbox[0]?.lastError ?? '';
        change = { state: 'pending', message: t('popup.stillWaiting', { reason }), retried: true };
      } else {
        change = {
          state: done.some((entry) => entry.state === 'failed') ? 'failed' : 'delivered',
          message: done.map((entry) => entry.message).join(' ') || t('popup.pendingSent'),
        };
      }
      update({ outbox, settled, change });
      if (change.state === 'delivered') {
        const delivered = done.filter((entry) => entry.state === 'delivered').map((entry) => entry.change);
        await deps.cache.applyChanges(current.scope, current.account, delivered);
        const lists = await deps.cache.readLists(current.scope, current.account, listHosts(current));
        if (ready()?.scope === current.scope) update({ lists });
      }
    },
    async undo() {
      const current = ready();
      const offer = current?.undo;
      if (!current || !offer) return;
      const { change, record, publicSuffixConfirmed } = offer;
      await submit(change, offer.progress, null, publicSuffixConfirmed ? { publicSuffixConfirmed } : {});
      // The entry is back, so is its record (when, from where, the note): best effort.
      if (record && ready()?.change.state !== 'failed')
        await notes.restore(current.account, record).catch(ignoreHere);
    },
    dispose() {
      for (const dispose of disposers.splice(0)) dispose();
      listeners.clear();
    },
  };
}

export type PopupController = ReturnType<typeof createPopupController>;

type Remote = Awaited<ReturnType<PopupDeps['loadRemote']>>;
interface Connection {
  remote: Remote;
  api: DnsFilterApi;
}

/** For promises awaited elsewhere: marks a rejection as handled without hiding it from that await. */
const ignoreHere = () => undefined;

function problemOf(error: unknown): Problem {
  if (isApiError(error)) {
    // A refused key or settings that cannot work (a bad base URL): the fix is in the settings.
    const settingsField = ['baseUrl', 'key', 'form'].includes(error.details.field ?? '');
    const inSettings = error.kind === 'bad-key' || (error.kind === 'invalid-input' && settingsField);
    return { kind: inSettings ? 'settings' : 'other', message: error.message };
  }
  return { kind: 'other', message: t('common.genericFailure') };
}
