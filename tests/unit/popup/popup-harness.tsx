/**
 * Renders the real popup (controller + view) against fakeBrowser storage, an in-memory API and
 * a recorded worker: the test decides the tab, the settings, what is cached and what the worker
 * answers.
 */
import { render } from '@testing-library/preact';
import { fakeBrowser } from 'wxt/testing';
import { PopupApp } from '@/components/popup/PopupApp';
// Loaded with the harness, not lazily as the popup does: a lazy load still running when a test
// ends would land after vitest has torn the environment down (an unhandled error).
import * as PopupExtras from '@/components/popup/PopupExtras';
import type { ApiForm } from '@/lib/api/types';
import { createViewCache } from '@/lib/cache/view-cache';
import type { PopupLock } from '@/lib/lock/popup-lock';
import type { ChangeOutcome, ListChange } from '@/lib/messaging/protocol';
import { createPopupController } from '@/lib/popup/controller';
import type { SubmitOptions } from '@/lib/popup/controller-context';
import type { AskWorkerForDomains } from '@/lib/popup/registrable';
import { apiKeyItem, chosenProfileItem, connectionItem } from '@/lib/settings/storage';
import { createFakeClient, type FakeClient } from '../../fakes/fake-client';
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

/** The shared fake client, seeded with the account the popup reads. */
export type FakeApi = FakeClient;

export function createFakeApi(form: ApiForm, account: Partial<FakeAccount> = {}): FakeApi {
  const asSets = (byScope: Record<string, string[]> = {}) =>
    Object.fromEntries(Object.entries(byScope).map(([scope, domains]) => [scope, new Set(domains)]));
  return createFakeClient(form, {
    profiles: [...(account.profiles ?? ['default'])],
    lists: { whitelist: asSets(account.whitelist), blocklist: asSets(account.blocklist) },
    blockedToday: { ...account.blockedToday },
  });
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
  /** The worker's handling of a change (instead of `outcomes`), e.g. the real outbox. */
  submitChange?: (change: ListChange, sentWith: SubmitOptions) => Promise<ChangeOutcome>;
  /** The worker's registrable domains; without it the popup works them out itself. */
  askWorkerForDomains?: AskWorkerForDomains;
  /** The passphrase lock (lib/lock/popup-lock.ts). */
  lock?: PopupLock;
  /** The key cannot be read (locked, docs/lock.md): no client can be made. */
  keyUnreadable?: boolean;
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
  /** Each change as sent, with what the popup sent along with it. */
  const sent: ({ change: ListChange } & SubmitOptions)[] = [];
  const outcomes = [...(options.outcomes ?? [])];
  const marks: string[] = [];
  /** The options page's sections the popup opened, in order (undefined: the page itself). */
  const optionsOpened: (string | undefined)[] = [];
  const controller = createPopupController({
    // The active tab's id, as the real reader takes it (lib/popup/read-tab.ts); the test decides the address.
    readTab: async () => ({
      id: (await fakeBrowser.tabs.query({ active: true, currentWindow: true }))[0]?.id,
      url: options.url,
    }),
    ...(options.askWorkerForDomains ? { askWorkerForDomains: options.askWorkerForDomains } : {}),
    cache: createViewCache({ now }),
    loadRemote: async () => ({
      ...(await import('@/lib/cache/refresh')),
      createConfiguredClient: async () => (options.keyUnreadable ? null : api),
    }),
    ...(options.lock ? { lockedNow: async () => (await options.lock?.status())?.locked === true } : {}),
    submitChange: async (change, sentWith) => {
      submitted.push(change);
      sent.push({ change, ...sentWith });
      if (options.submitChange) return options.submitChange(change, sentWith);
      return outcomes.shift() ?? { state: 'delivered', message: `Done: ${change.op} ${change.domain}.` };
    },
    now,
  });
  const view = render(
    <PopupApp
      controller={controller}
      openOptions={(section) => optionsOpened.push(section)}
      mark={(name) => marks.push(name)}
      loadExtras={async () => PopupExtras}
      now={now}
      {...(options.lock ? { lock: options.lock } : {})}
    />,
  );
  const started = controller.start();
  return {
    ...view,
    api,
    controller,
    started,
    submitted,
    sent,
    marks,
    optionsOpened: () => optionsOpened.length,
    optionsSections: () => [...optionsOpened],
  };
}

export { ApiError } from '@/lib/api/errors';
