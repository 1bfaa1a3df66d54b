/**
 * The right-click menu: "Whitelist this site" / "Blocklist this site" on a page, and the same for
 * a link's domain, each with one item per profile in Form A. `buildMenuItems` is pure; the
 * worker creates what it returns after removing everything (so ids never collide).
 */
import { type ApiForm, capabilitiesOf } from '@/lib/api/forms';
import type { DomainListKind } from '@/lib/api/types';
import { hostnameFromUrl, registrableDomain } from '@/lib/filtering/domain';
import { type PlainKey, t } from '@/lib/i18n';

export type MenuTarget = 'page' | 'link';

export interface MenuItem {
  id: string;
  title: string;
  contexts: ['page'] | ['link'];
  parentId?: string;
  /** Only on web pages / web links: there is no domain to act on elsewhere. */
  documentUrlPatterns?: string[];
  targetUrlPatterns?: string[];
}

export interface MenuInput {
  enabled: boolean;
  form: ApiForm;
  /** Profiles as last listed; empty when not known yet. */
  profiles: readonly string[];
  /** Acts on this profile when the list of profiles is not known (Form A). */
  fallbackProfile: string;
  /**
   * The active account's name, given when there is more than one account: the menu acts on the
   * active account, and its titles say which.
   */
  accountName?: string;
  /** Saved profile groups (lib/profile-groups/groups.ts), offered after the profiles (Form A). */
  groups?: readonly { id: string; name: string }[];
}

export interface MenuAction {
  list: DomainListKind;
  target: MenuTarget;
  /** Form A profile; undefined in Form B. */
  profile?: string;
  /** A saved profile group's id: the change goes to each of its profiles (docs/several-profiles.md). */
  group?: string;
}

const PREFIX = 'dnsfc';
const WEB_PATTERNS = ['http://*/*', 'https://*/*'];
const TITLES: Record<MenuTarget, Record<DomainListKind, PlainKey>> = {
  page: { whitelist: 'menus.whitelistSite', blocklist: 'menus.blocklistSite' },
  link: { whitelist: 'menus.whitelistLink', blocklist: 'menus.blocklistLink' },
};

function actionId(action: MenuAction): string {
  if (action.group !== undefined) return `${PREFIX}-group:${action.list}:${action.target}:${action.group}`;
  const base = `${PREFIX}:${action.list}:${action.target}`;
  return action.profile === undefined ? base : `${base}:${action.profile}`;
}

/** The items to create, parents before their children. */
export function buildMenuItems(input: MenuInput): MenuItem[] {
  if (!input.enabled) return [];
  const profiles = [...new Set(input.profiles)];
  const items: MenuItem[] = [];
  for (const target of ['page', 'link'] as const) {
    for (const list of ['whitelist', 'blocklist'] as const) {
      const patterns =
        target === 'page' ? { documentUrlPatterns: WEB_PATTERNS } : { targetUrlPatterns: WEB_PATTERNS };
      const title = t(TITLES[target][list]);
      const common = {
        title:
          input.accountName === undefined
            ? title
            : t('accounts.menuTitle', { account: input.accountName, title }),
        contexts: [target] as ['page'] | ['link'],
        ...patterns,
      };
      if (!capabilitiesOf(input.form).profileSelection) {
        items.push({ id: actionId({ list, target }), ...common });
      } else if (profiles.length === 0) {
        items.push({ id: actionId({ list, target, profile: input.fallbackProfile }), ...common });
      } else {
        const parentId = `${PREFIX}-parent:${list}:${target}`;
        items.push({ id: parentId, ...common });
        const child = (id: string, title: string) => ({
          id,
          title,
          contexts: common.contexts,
          parentId,
          ...patterns,
        });
        for (const profile of profiles) items.push(child(actionId({ list, target, profile }), profile));
        for (const { id, name } of input.groups ?? []) {
          items.push(child(actionId({ list, target, group: id }), t('profileGroups.menuItem', { name })));
        }
      }
    }
  }
  return items;
}

/**
 * Reads a clicked item's id back. A parent or a foreign id gives null. The profile is everything
 * after the third colon, so a profile name with a colon survives.
 */
export function parseMenuItemId(id: string | number): MenuAction | null {
  if (typeof id !== 'string') return null;
  const group = /^dnsfc-group:(whitelist|blocklist):(page|link):(.+)$/.exec(id);
  if (group)
    return { list: group[1] as DomainListKind, target: group[2] as MenuTarget, group: group[3] as string };
  const match = /^dnsfc:(whitelist|blocklist):(page|link)(?::(.+))?$/.exec(id);
  if (!match) return null;
  const [, list, target, profile] = match;
  const action = { list: list as DomainListKind, target: target as MenuTarget };
  return profile === undefined ? action : { ...action, profile };
}

/** The domain a menu action or a shortcut acts on: the registrable domain of the URL's host. */
export function domainForUrl(url: string | undefined): string | null {
  if (!url) return null;
  const host = hostnameFromUrl(url);
  return host === null ? null : registrableDomain(host);
}
