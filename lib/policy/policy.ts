/**
 * The enterprise policy an administrator sets for this extension (docs/managed-deployment.md):
 * `storage.managed`, filled by Chrome from its policy files or the registry and by Firefox from the
 * "3rdparty" section of policies.json. What the policy may name is public/managed_schema.json;
 * this module checks what the browser hands over, field by field, so one bad field is reported
 * and left out while the others still apply (as the browsers themselves treat a bad policy).
 */
import * as z from 'zod/mini';
import { API_FORMS, type ApiForm } from '@/lib/api/forms';
import { t } from '@/lib/i18n';
import { ACCOUNT_NAME_MAX, MAX_ACCOUNTS } from '@/lib/settings/limits';
import { isRecord } from '@/lib/settings/shape';
import { validateAccountName, validateApiKey, validateBaseUrl } from '@/lib/validation';

/**
 * The options sections (lib/options/routes.ts addresses) a policy may close to changes: every
 * section that changes the account or this browser's behaviour. The Overview only shows, and the
 * Appearance is the person's own.
 */
export const CLOSABLE_SECTIONS = [
  'categories',
  'whitelist',
  'blocklist',
  'tlds',
  'default-block',
  'profiles',
  'networks',
  'dynamic-ip',
  'logs',
  'setup',
  'accounts',
  'menu',
  'diagnosis',
  'backup',
] as const;
export type ClosableSection = (typeof CLOSABLE_SECTIONS)[number];

/** An account the policy sets up: the name identifies it from one policy to the next. */
export interface PolicyAccount {
  name: string;
  baseUrl: string;
  form: ApiForm;
  key: string;
}

export interface Policy {
  /** The accounts it sets up, those that could be read (see `accountsComplete`). */
  accounts: PolicyAccount[];
  /**
   * False when an entry of `accounts` (or the field) was bad and left out: accounts it set up
   * before are then kept rather than removed, since the administrator did not mean to remove them.
   */
  accountsComplete: boolean;
  lockRequired: boolean;
  popupChanges: boolean;
  menuChanges: boolean;
  closedSections: ClosableSection[];
  pageDiagnosis: boolean;
  /** What was wrong with the policy, for the options page; never a key. */
  problems: string[];
}

/** No policy at all, or the policy the browser handed over. */
export type PolicyReading = { state: 'none' } | { state: 'set'; policy: Policy };

export const NO_POLICY: PolicyReading = { state: 'none' };

/** The fields public/managed_schema.json describes (a test holds them to it). */
export const POLICY_FIELDS = [
  'accounts',
  'lockRequired',
  'popupChanges',
  'menuChanges',
  'closedOptionsSections',
  'pageDiagnosis',
] as const;

const accountFieldsSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(ACCOUNT_NAME_MAX)),
  baseUrl: z.string(),
  form: z.enum(API_FORMS),
  key: z.string(),
});
const sectionsSchema = z.array(z.enum(CLOSABLE_SECTIONS));

/** One entry of `accounts`, checked as the Accounts section checks what a user types. */
function checkAccount(raw: unknown, position: number, problems: string[]): PolicyAccount | null {
  const parsed = accountFieldsSchema.safeParse(raw);
  const label = isRecord(raw) && typeof raw.name === 'string' ? raw.name : String(position);
  if (!parsed.success) {
    problems.push(t('policy.problem.account', { account: label }));
    return null;
  }
  const name = validateAccountName(parsed.data.name);
  const baseUrl = validateBaseUrl(parsed.data.baseUrl);
  const key = validateApiKey(parsed.data.key);
  if (name.ok && baseUrl.ok && key.ok)
    return { name: name.value, baseUrl: baseUrl.value, form: parsed.data.form, key: key.value };
  const [failed] = [name, baseUrl, key].flatMap((check) => (check.ok ? [] : [check.message]));
  problems.push(t('policy.problem.accountField', { account: label, message: failed ?? '' }));
  return null;
}

function checkAccounts(raw: unknown, problems: string[]): Pick<Policy, 'accounts' | 'accountsComplete'> {
  if (raw === undefined) return { accounts: [], accountsComplete: true };
  if (!Array.isArray(raw)) {
    problems.push(t('policy.problem.field', { field: 'accounts' }));
    return { accounts: [], accountsComplete: false };
  }
  const accounts: PolicyAccount[] = [];
  let complete = raw.length <= MAX_ACCOUNTS;
  if (!complete) problems.push(t('policy.problem.tooManyAccounts', { max: MAX_ACCOUNTS }));
  raw.slice(0, MAX_ACCOUNTS).forEach((entry, index) => {
    const account = checkAccount(entry, index + 1, problems);
    const lower = account?.name.toLocaleLowerCase();
    if (account && accounts.some((other) => other.name.toLocaleLowerCase() === lower)) {
      problems.push(t('policy.problem.sameName', { account: account.name }));
      complete = false;
    } else if (account) accounts.push(account);
    else complete = false;
  });
  return { accounts, accountsComplete: complete };
}

/**
 * A yes/no field: `whenAbsent` when the policy leaves it out (what the extension does without a
 * policy), `whenUnreadable` (the strict side: changes closed) when it is not a boolean, since an
 * administrator who wrote it meant to restrict something.
 */
function checkFlag(
  raw: Record<string, unknown>,
  field: (typeof POLICY_FIELDS)[number],
  whenAbsent: boolean,
  whenUnreadable: boolean,
  problems: string[],
): boolean {
  const value = raw[field];
  if (value === undefined) return whenAbsent;
  if (typeof value === 'boolean') return value;
  problems.push(t('policy.problem.field', { field }));
  return whenUnreadable;
}

/**
 * The policy in `raw` (what `storage.managed.get()` answered). Nothing set reads as no policy. A
 * field that does not fit is reported, and the others apply; a restriction that cannot be read
 * is taken at its strict side (`checkFlag`; every section closed for `closedOptionsSections`).
 */
export function parsePolicy(raw: unknown): PolicyReading {
  if (!isRecord(raw) || !POLICY_FIELDS.some((field) => raw[field] !== undefined)) return NO_POLICY;
  const problems: string[] = [];
  const accounts = checkAccounts(raw.accounts, problems);
  const lockRequired = checkFlag(raw, 'lockRequired', false, true, problems);
  const popupChanges = checkFlag(raw, 'popupChanges', true, false, problems);
  const menuChanges = checkFlag(raw, 'menuChanges', true, false, problems);
  const pageDiagnosis = checkFlag(raw, 'pageDiagnosis', true, false, problems);
  let closedSections: ClosableSection[] = [];
  if (raw.closedOptionsSections !== undefined) {
    const sections = sectionsSchema.safeParse(raw.closedOptionsSections);
    if (sections.success) closedSections = [...new Set(sections.data)];
    else {
      problems.push(t('policy.problem.field', { field: 'closedOptionsSections' }));
      closedSections = [...CLOSABLE_SECTIONS];
    }
  }
  return {
    state: 'set',
    policy: { ...accounts, lockRequired, popupChanges, menuChanges, closedSections, pageDiagnosis, problems },
  };
}

/** What this module needs of `browser.storage.managed`. */
export interface ManagedStorageArea {
  get(): Promise<Record<string, unknown>>;
}

/**
 * The policy as the browser has it now. No `storage.managed` (a browser without it), or a read
 * that fails (Firefox answers a failure when policies.json names nothing for this extension),
 * reads as no policy.
 */
export async function readPolicy(area: ManagedStorageArea | undefined): Promise<PolicyReading> {
  if (!area) return NO_POLICY;
  try {
    return parsePolicy(await area.get());
  } catch {
    return NO_POLICY;
  }
}
