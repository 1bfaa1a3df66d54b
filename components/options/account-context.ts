import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import {
  type ApiForm,
  capabilitiesOf,
  DEFAULT_PROFILE,
  type FormDescription,
  profileFor,
} from '@/lib/api/forms';
import type { DnsFilterApi, DomainListKind } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import type { SettingChange } from '@/lib/messaging/protocol';
import type { AccountNotesAccess } from '@/lib/notes';
import { scopeKey } from '@/lib/settings/storage';

export interface ListChangeReport {
  list: DomainListKind;
  /** Form A profile; undefined in Form B. */
  profile: string | undefined;
  /** Scope key of the changed list (lib/settings/storage.ts `scopeKey`). */
  scope: string;
  changes: { op: 'add' | 'remove'; list: DomainListKind; domain: string }[];
}

/** What the account sections need from outside; tests pass fakes, the page passes the real ones. */
export interface AccountServices {
  client: DnsFilterApi;
  /** This browser's public IPv4 address, found the same way the worker finds it. */
  lookupPublicIp?: (signal: AbortSignal) => Promise<string>;
  /**
   * Look the address up as soon as the Networks section opens (dynamic IP registration is on and
   * asks the lookup services anyway). Otherwise only a click does: opening the page must not tell
   * a third-party lookup service this browser's address.
   */
  lookUpPublicIpAtOnce?: boolean;
  /** Called after the service confirmed list changes, so the popup's cached lists are not stale. */
  onListChanged?: (change: ListChangeReport) => void | Promise<void>;
  /**
   * Called after the service confirmed a category or default block set here, so a schedule's
   * change of it still queued does not undo it later (docs/schedules.md, "Manual changes").
   */
  onSettingChanged?: (change: SettingChange) => void | Promise<void>;
  /** Called with the account's profiles each time they are listed (the context menu shows them too). */
  onProfilesListed?: (profiles: readonly string[]) => void | Promise<void>;
  /** Clock for "set on …" notes. */
  now?: () => number;
  /** The records of entries added from this browser, and their notes (lib/notes), for the list views. */
  entryNotes?: AccountNotesAccess;
}

export interface AccountScope extends AccountServices {
  form: ApiForm;
  /** What the form can do (lib/api/forms.ts): sections offer only what works. */
  capabilities: FormDescription['capabilities'];
  /** The chosen profile in Form A; undefined in Form B (whole account). */
  profile: string | undefined;
  /** Key of per-scope data kept in this browser. */
  scope: string;
  /** Profiles of the account, as last listed. */
  profiles: readonly string[];
}

export const AccountContext = createContext<AccountScope | null>(null);

export function useAccount(): AccountScope {
  const account = useContext(AccountContext);
  if (!account) throw new Error('Account sections must be rendered inside <AccountManagement>.');
  return account;
}

export function accountScope(
  services: AccountServices,
  profile: string,
  profiles: readonly string[],
): AccountScope {
  const form = services.client.form;
  const effective = profileFor(form, profile);
  return {
    ...services,
    form,
    capabilities: capabilitiesOf(form),
    profile: effective,
    scope: scopeKey(form, effective),
    profiles,
  };
}

/** "profile work" or "the whole account", for status texts. */
export function scopePhrase(form: ApiForm, profile: string | undefined): string {
  return capabilitiesOf(form).profileSelection
    ? t('common.profileNamed', { profile: profile ?? DEFAULT_PROFILE })
    : t('common.wholeAccount');
}

/** docs/service-api.md: say after a change that it takes time, never promise an immediate effect. */
export const propagationNote = () => t('common.propagationNote');
