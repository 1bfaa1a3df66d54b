/** What both forms share: the handler contract, parameter helpers and the log actions. */
import type { Readable } from 'node:stream';
import type { LogDays } from '../days.ts';
import { fail } from '../failure.ts';
import type { Account, DomainList } from '../state.ts';
import { normaliseDomain, normaliseLabel } from '../validate.ts';

export interface FormContext {
  account: Account;
  days: LogDays;
}

export type ActionResult =
  | { type: 'json'; body: Record<string, unknown> }
  | { type: 'dump'; stream: Readable };

export type ActionHandler = (
  params: URLSearchParams,
  ctx: FormContext,
) => ActionResult | Promise<ActionResult>;

export const SUCCESS: ActionResult = { type: 'json', body: { status: 'success' } };

export function json(body: Record<string, unknown>): ActionResult {
  return { type: 'json', body: { status: 'success', ...body } };
}

/** An empty value counts as absent, as it would for a form field left blank. */
export function optional(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value === '' ? undefined : value;
}

export function required(params: URLSearchParams, name: string): string {
  return optional(params, name) ?? fail(400, `Missing parameter: ${name}`);
}

export function domainParam(params: URLSearchParams, name: string): string {
  return normaliseDomain(required(params, name)) ?? fail(400, 'Invalid domain name');
}

export function labelParam(params: URLSearchParams): string | undefined {
  const raw = params.get('label');
  if (raw === null || raw.trim() === '') return undefined;
  return normaliseLabel(raw) ?? fail(400, 'Invalid label: use 1 to 64 printable characters');
}

export const LIST_KINDS: readonly DomainList[] = ['whitelist', 'blocklist'];

/** The four log actions take the same `date` parameter and answer alike in both forms. */
export const logActions: Record<string, ActionHandler> = {
  'logs/list': (_params, { days }) => json({ logs: days.dates() }),
  'logs/getstats': async (params, { days }) => json({ ...(await days.stats(required(params, 'date'))) }),
  'logs/getdump': (params, { days }) => ({ type: 'dump', stream: days.openDump(required(params, 'date')) }),
  'logs/delete': (params, { days }) => {
    days.delete(required(params, 'date'));
    return SUCCESS;
  },
};
