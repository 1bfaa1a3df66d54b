/**
 * The Overview of the options page: the account at a glance, assembled from the service (through
 * the configured client) and from what this browser keeps (outbox, dynamic IP). Each part is
 * loaded on its own: one failing call leaves the others shown, with its own reason.
 */
import { isApiError } from '@/lib/api/errors';
import type { DnsFilterApi } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import { type DaySummary, summariseDay } from '@/lib/logs/stats';
import {
  type DynamicIpSettings,
  dynamicIpSettingsItem,
  type OutboxEntry,
  outboxItem,
  type RegisteredAddress,
  type RegistrationOutcome,
  registeredAddressesItem,
  registrationOutcomeItem,
} from '@/lib/settings/storage';

export type Part<T> = { ok: true; value: T } | { ok: false; message: string };

export interface ListSizes {
  /** The profile (Form A) or the account's key (Form B) whose lists these are. */
  scope: string;
  whitelist: number;
  blocklist: number;
}

export interface ThisNetwork {
  /** This network's public address as last found by the dynamic IP registration; null when not known. */
  ip: string | null;
  /** Whether that address is among the account's networks; null when either is not known. */
  registered: boolean | null;
  /** Keeping this network registered is on. */
  dynamicIp: boolean;
  /** The address was registered by this browser's dynamic IP registration for this account. */
  byDynamicIp: boolean;
  lastOutcome: RegistrationOutcome | null;
}

export interface Waiting {
  /** Changes of this account not yet confirmed by the service. */
  count: number;
  /** Of those, how many failed at least once; with the latest reason. */
  retrying: number;
  lastError: string | undefined;
  /** Changes made for another account (shown in their own section). */
  otherAccounts: number;
}

export interface AccountOverview {
  /** The profiles listed, which is also the connection test. */
  connection: Part<{ profiles: string[] }>;
  lists: Part<ListSizes[]>;
  networks: Part<{ count: number }>;
  thisNetwork: ThisNetwork;
  /** The newest day with statistics (normally today); null when the service has none. */
  today: Part<{ date: string; summary: DaySummary } | null>;
  waiting: Waiting;
}

/** What this browser keeps that the Overview shows. */
export interface LocalState {
  outbox: readonly OutboxEntry[];
  dynamicIp: Pick<DynamicIpSettings, 'enabled'>;
  outcome: RegistrationOutcome | null;
  registered: { current: RegisteredAddress | null };
}

export interface OverviewDeps {
  client: Pick<
    DnsFilterApi,
    'listProfiles' | 'listDomainsByProfile' | 'listNetworks' | 'listLogDays' | 'getStats'
  >;
  /** Identity of the configured account (lib/identity/identity.ts). */
  accountId: string;
  readLocal: () => Promise<LocalState>;
}

function failureOf(error: unknown): string {
  return isApiError(error) ? error.message : t('common.genericFailure');
}

async function part<T>(signal: AbortSignal, load: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (error) {
    // A page that moved on does not want the answer; the caller drops it.
    if (signal.aborted) throw error;
    return { ok: false, message: failureOf(error) };
  }
}

export function waitingChanges(outbox: readonly OutboxEntry[], accountId: string): Waiting {
  const mine = outbox.filter((entry) => entry.account === accountId);
  const retrying = mine.filter((entry) => entry.attempts > 0);
  return {
    count: mine.length,
    retrying: retrying.length,
    lastError: retrying.findLast((entry) => entry.lastError !== undefined)?.lastError,
    otherAccounts: outbox.length - mine.length,
  };
}

export function thisNetwork(
  local: LocalState,
  accountId: string,
  networks: Part<{ ips: string[] }>,
): ThisNetwork {
  // Only the registration looks the address up; opening the Overview never asks a lookup service.
  const ip = local.dynamicIp.enabled && local.outcome?.ip ? local.outcome.ip : null;
  const registered = ip === null || !networks.ok ? null : networks.value.ips.includes(ip);
  const current = local.registered.current;
  return {
    ip,
    registered,
    dynamicIp: local.dynamicIp.enabled,
    byDynamicIp:
      registered === true && current !== null && current.account === accountId && current.ip === ip,
    lastOutcome: local.outcome,
  };
}

export function createOverviewLoader(deps: OverviewDeps) {
  const { client } = deps;
  return async function loadOverview(signal: AbortSignal): Promise<AccountOverview> {
    const opts = { signal };
    const [connection, whitelist, blocklist, networkList, today, local] = await Promise.all([
      part(signal, async () => ({ profiles: await client.listProfiles(opts) })),
      part(signal, () => client.listDomainsByProfile('whitelist', opts)),
      part(signal, () => client.listDomainsByProfile('blocklist', opts)),
      part(signal, async () => ({ ips: (await client.listNetworks(opts)).map((network) => network.ip) })),
      part(signal, async () => {
        const [date] = await client.listLogDays(opts);
        if (date === undefined) return null;
        return { date, summary: summariseDay(await client.getStats(date, opts)) };
      }),
      deps.readLocal(),
    ]);
    const lists: Part<ListSizes[]> = !whitelist.ok
      ? whitelist
      : !blocklist.ok
        ? blocklist
        : {
            ok: true,
            value: [...new Set([...Object.keys(whitelist.value), ...Object.keys(blocklist.value)])].map(
              (scope) => ({
                scope,
                whitelist: whitelist.value[scope]?.length ?? 0,
                blocklist: blocklist.value[scope]?.length ?? 0,
              }),
            ),
          };
    return {
      connection,
      lists,
      networks: networkList.ok ? { ok: true, value: { count: networkList.value.ips.length } } : networkList,
      thisNetwork: thisNetwork(local, deps.accountId, networkList),
      today,
      waiting: waitingChanges(local.outbox, deps.accountId),
    };
  };
}

/** What the Overview reads from this browser's storage. */
export async function readLocalState(): Promise<LocalState> {
  const [outbox, dynamicIp, outcome, registered] = await Promise.all([
    outboxItem.getValue(),
    dynamicIpSettingsItem.getValue(),
    registrationOutcomeItem.getValue(),
    registeredAddressesItem.getValue(),
  ]);
  return { outbox, dynamicIp, outcome, registered };
}
