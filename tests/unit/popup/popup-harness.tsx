/**
 * Renders the real popup (controller + view) against fakeBrowser storage, an in-memory API and
 * a recorded worker: the test decides the tab, the settings, what is cached and what the worker
 * answers.
 */
import { render } from '@testing-library/preact';
import { PopupApp } from '@/components/popup/PopupApp';
import { createPopupController } from '@/components/popup/popup-controller';
import type { AskWorkerForDomains } from '@/components/popup/registrable';
import { ApiError } from '@/lib/api/errors';
import type { ApiForm, DayStats, DnsFilterApi, DomainListKind } from '@/lib/api/types';
import { createViewCache } from '@/lib/cache/view-cache';
import type { ChangeOutcome, ListChange } from '@/lib/messaging/protocol';
import { apiKeyItem, chosenProfileItem, connectionItem } from '@/lib/settings/storage';
import { accountIdFor } from '../account-ids';

export const BASE_URL = 'http://127.0.0.1:8787';
export const T0 = Date.UTC(2026, 4, 1, 12, 0, 0);
export const MINUTE = 60_000;

export interface FakeAccount {
  profiles: string[];
  /** profile ('account' in Form B) -> domains */
  whitelist: Record<string, string[]>;
  blocklist: Record<string, string[]>;
  /** host -> blocked count today */
  blockedToday: Record<string, number>;
}

export interface FakeApi extends DnsFilterApi {
  calls: string[];
  failWith(error: ApiError | null): void;
}

export function createFakeApi(form: ApiForm, account: Partial<FakeAccount> = {}): FakeApi {
  const data: FakeAccount = {
    profiles: ['default'],
    whitelist: {},
    blocklist: {},
    blockedToday: {},
    ...account,
  };
  const calls: string[] = [];
  let failure: ApiError | null = null;
  const call = async <T,>(name: string, answer: () => T): Promise<T> => {
    calls.push(name);
    if (failure) throw failure;
    return answer();
  };
  const scope = (profile: string | undefined) => (form === 'B' ? 'account' : (profile ?? 'default'));
  const unused = () => Promise.reject(new Error('not used by the popup'));
  return {
    form,
    calls,
    failWith(error) {
      failure = error;
    },
    listProfiles: () => call('profiles/list', () => [...data.profiles]),
    listDomains: (list: DomainListKind, profile?: string) =>
      call(`${list}/list ${scope(profile)}`, () => [...(data[list][scope(profile)] ?? [])]),
    getStats: (date: string) =>
      call(`logs/getstats ${date}`, (): DayStats => {
        const blocked = Object.fromEntries(
          Object.entries(data.blockedToday).map(([host, n]) => [`${host}.`, n]),
        );
        const hour = `${date} 09:00`;
        return {
          ips: {},
          reqtypes: {},
          action: {},
          blocks: {},
          domains: { [hour]: { Allowed: {}, Blocked: blocked } },
        };
      }),
    addProfile: unused,
    deleteProfile: unused,
    listCategories: unused,
    setCategoryBlocked: unused,
    listDomainsByProfile: unused,
    addDomain: unused,
    deleteDomain: unused,
    blockTld: unused,
    setDefaultBlock: unused,
    listNetworks: unused,
    addNetwork: unused,
    deleteNetwork: unused,
    listLogDays: unused,
    getDump: unused,
    deleteLogDay: unused,
  };
}

export interface OpenOptions {
  url: string | undefined;
  form?: ApiForm;
  key?: string;
  profile?: string;
  api?: FakeApi;
  now?: () => number;
  /** What the worker answers, in order; then 'delivered'. */
  outcomes?: ChangeOutcome[];
  /** The worker's registrable domains; without it the popup works them out itself. */
  askWorkerForDomains?: AskWorkerForDomains;
}

export async function configure(form: ApiForm = 'A', key = 'test-key', profile?: string) {
  await apiKeyItem.setValue(key);
  await connectionItem.setValue({ baseUrl: BASE_URL, form });
  if (profile) await chosenProfileItem.setValue(profile);
}

/** The account identity's id of `configure(form, key)`. */
export const accountOf = (form: ApiForm, key = 'test-key') => accountIdFor(form, BASE_URL, key);

/** A view cache writing as if at `at`. */
export function cacheAt(at: number) {
  return createViewCache({ now: () => at });
}

export async function openPopup(options: OpenOptions) {
  const form = options.form ?? 'A';
  if (options.key !== '') await configure(form, options.key ?? 'test-key', options.profile);
  const api = options.api ?? createFakeApi(form);
  const now = options.now ?? (() => T0);
  const submitted: ListChange[] = [];
  const outcomes = [...(options.outcomes ?? [])];
  const marks: string[] = [];
  let optionsOpened = 0;
  const controller = createPopupController({
    readTab: async () => ({ url: options.url }),
    ...(options.askWorkerForDomains ? { askWorkerForDomains: options.askWorkerForDomains } : {}),
    cache: createViewCache({ now }),
    loadRemote: async () => ({
      ...(await import('@/lib/cache/refresh')),
      createConfiguredClient: async () => api,
    }),
    submitChange: async (change) => {
      submitted.push(change);
      return outcomes.shift() ?? { state: 'delivered', message: `Done: ${change.op} ${change.domain}.` };
    },
    now,
  });
  const view = render(
    <PopupApp
      controller={controller}
      openOptions={() => optionsOpened++}
      mark={(name) => marks.push(name)}
      now={now}
    />,
  );
  const started = controller.start();
  return {
    ...view,
    api,
    controller,
    started,
    submitted,
    marks,
    optionsOpened: () => optionsOpened,
  };
}

export { ApiError };
