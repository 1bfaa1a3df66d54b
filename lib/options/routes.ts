/**
 * The options page's sections, as one table: the address of each (`options.html#<id>`), the
 * heading it carries (the navigation entry is named the same), the view it is shown in (sections
 * of one view are shown together, one view at a time), the navigation group it is listed under,
 * and whether it needs a saved key. Adding a section is one row here plus its component in
 * `components/options/OptionsApp.tsx` (the compiler asks for it). The ids are a stable interface:
 * the popup links to them; docs/architecture.md lists them.
 */
import type { PlainKey } from '@/lib/i18n';

export const NAV_GROUPS = [
  { id: 'start', title: null },
  { id: 'filtering', title: 'nav.filtering' },
  { id: 'account', title: 'nav.account' },
  { id: 'activity', title: 'nav.activity' },
  { id: 'settings', title: 'nav.settings' },
] as const satisfies readonly { id: string; title: PlainKey | null }[];
export type NavGroupId = (typeof NAV_GROUPS)[number]['id'];

interface SectionShape {
  /** `options.html#<id>`; never renamed (links and bookmarks use it). */
  readonly id: string;
  /** The section's heading; its navigation entry has the same name. */
  readonly title: PlainKey;
  readonly view: string;
  readonly group: NavGroupId;
  /** Shown only once an API key is saved (before that it would be a form that cannot work). */
  readonly needsKey: boolean;
  /** Listed only while there is something in it (changes waiting for another account). */
  readonly onlyWhenNeeded?: boolean;
}

export const SECTIONS = [
  { id: 'overview', title: 'overview.heading', view: 'overview', group: 'start', needsKey: true },
  {
    id: 'other-accounts',
    title: 'otherAccounts.heading',
    view: 'other-accounts',
    group: 'start',
    needsKey: false,
    onlyWhenNeeded: true,
  },
  { id: 'categories', title: 'categories.heading', view: 'filtering', group: 'filtering', needsKey: true },
  {
    id: 'whitelist',
    title: 'domainList.title.whitelist',
    view: 'filtering',
    group: 'filtering',
    needsKey: true,
  },
  {
    id: 'blocklist',
    title: 'domainList.title.blocklist',
    view: 'filtering',
    group: 'filtering',
    needsKey: true,
  },
  { id: 'tlds', title: 'tld.heading', view: 'filtering', group: 'filtering', needsKey: true },
  {
    id: 'default-block',
    title: 'defaultBlock.heading',
    view: 'filtering',
    group: 'filtering',
    needsKey: true,
  },
  { id: 'schedules', title: 'schedules.heading', view: 'schedules', group: 'filtering', needsKey: true },
  { id: 'profiles', title: 'profiles.heading', view: 'profiles', group: 'account', needsKey: true },
  { id: 'networks', title: 'networks.heading', view: 'networks', group: 'account', needsKey: true },
  { id: 'dynamic-ip', title: 'dynamicIp.heading', view: 'networks', group: 'account', needsKey: true },
  { id: 'logs', title: 'logsSection.heading', view: 'logs', group: 'activity', needsKey: true },
  { id: 'history', title: 'history.heading', view: 'history', group: 'activity', needsKey: true },
  { id: 'setup', title: 'setup.heading', view: 'setup', group: 'settings', needsKey: false },
  { id: 'accounts', title: 'accounts.heading', view: 'accounts', group: 'settings', needsKey: false },
  { id: 'appearance', title: 'appearance.heading', view: 'appearance', group: 'settings', needsKey: false },
  { id: 'menu', title: 'dynamicIp.menuHeading', view: 'menu', group: 'settings', needsKey: false },
  { id: 'diagnosis', title: 'diagnosis.heading', view: 'diagnosis', group: 'settings', needsKey: false },
  { id: 'backup', title: 'backup.heading', view: 'backup', group: 'settings', needsKey: false },
  { id: 'lock', title: 'lock.section', view: 'lock', group: 'settings', needsKey: true },
] as const satisfies readonly SectionShape[];

export type SectionRoute = (typeof SECTIONS)[number] & SectionShape;
export type SectionId = SectionRoute['id'];
export type ViewId = SectionRoute['view'];

/** What decides which sections can be reached now. */
export interface RouteContext {
  hasKey: boolean;
  /** Changes are waiting for an account that is not the configured one. */
  otherAccountChanges: boolean;
}

export function sectionById(id: string): SectionRoute | undefined {
  return SECTIONS.find((section) => section.id === id);
}

/** Whether the section can be shown and listed now. */
export function isAvailable(section: SectionRoute, context: RouteContext): boolean {
  if (section.needsKey && !context.hasKey) return false;
  if (section.onlyWhenNeeded && section.id === 'other-accounts') return context.otherAccountChanges;
  return true;
}

/** Where the page opens without a usable address: the Overview, or Setup (the welcome) without a key. */
export function homeSection(context: RouteContext): SectionRoute {
  return sectionById(context.hasKey ? 'overview' : 'setup') as SectionRoute;
}

/** `#logs`, `logs` or `#/logs` to the Logs section; anything unknown or unavailable to the home section. */
export function sectionForHash(hash: string, context: RouteContext): SectionRoute {
  const id = decodeURIComponent(hash.replace(/^#\/?/, '')).trim().toLowerCase();
  const section = sectionById(id);
  return section && isAvailable(section, context) ? section : homeSection(context);
}

export function hashFor(section: Pick<SectionRoute, 'id'>): string {
  return `#${section.id}`;
}

/** The sections shown together with this one. */
export function sectionsInView(view: ViewId): SectionRoute[] {
  return SECTIONS.filter((section) => section.view === view);
}

/** Whether the section opens its view, so that showing the view shows it at the top. */
export function isFirstOfView(section: Pick<SectionRoute, 'id' | 'view'>): boolean {
  return sectionsInView(section.view)[0]?.id === section.id;
}

/** The navigation: each group with its sections that can be reached now (empty groups left out). */
export function navigation(context: RouteContext) {
  return NAV_GROUPS.map((group) => ({
    ...group,
    sections: SECTIONS.filter((section) => section.group === group.id && isAvailable(section, context)),
  })).filter((group) => group.sections.length > 0);
}
