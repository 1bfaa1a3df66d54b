/**
 * The options page's address follows the section shown (`options.html#logs`), so a section can
 * be linked to, reloaded and bookmarked, and the browser's back and forward buttons move between
 * the sections chosen. Framework-free: takes the window parts it uses, so tests pass fakes.
 */
import { hashFor, type RouteContext, type SectionRoute, sectionForHash } from './routes';

export interface RouterWindow {
  location: { hash: string };
  history: {
    pushState(data: unknown, unused: string, url?: string): void;
    replaceState(data: unknown, unused: string, url?: string): void;
  };
  addEventListener(type: 'hashchange' | 'popstate', listener: () => void): void;
  removeEventListener(type: 'hashchange' | 'popstate', listener: () => void): void;
}

export interface SectionRouter {
  /** The section the address names, or the home section when it names none that can be shown now. */
  current(context: RouteContext): SectionRoute;
  /** Shows a section: a new history entry, unless it is the one shown already. */
  go(section: Pick<SectionRoute, 'id'>): void;
  /** Corrects an address naming a section that cannot be shown, without a new history entry. */
  settle(section: Pick<SectionRoute, 'id'>): void;
  /** Whether the address names `section`, or no section (a plain `options.html`: the home section). */
  names(section: Pick<SectionRoute, 'id'>): boolean;
  /** Calls `onChange` when the address changes by back, forward or an edited address; returns the stop. */
  follow(onChange: () => void): () => void;
}

export function createSectionRouter(win: RouterWindow): SectionRouter {
  return {
    current: (context) => sectionForHash(win.location.hash, context),
    go(section) {
      const hash = hashFor(section);
      if (win.location.hash === hash) return;
      // pushState changes the address without a hashchange event: the caller shows the section
      // itself, at once, in the same render as whatever else it changes.
      win.history.pushState(null, '', hash);
    },
    settle(section) {
      // A plain `options.html` shows the home section and stays plain; an address naming a
      // section that cannot be shown is corrected to the one shown.
      const hash = hashFor(section);
      if (win.location.hash !== '' && win.location.hash !== hash) win.history.replaceState(null, '', hash);
    },
    names(section) {
      return win.location.hash === '' || win.location.hash === hashFor(section);
    },
    follow(onChange) {
      win.addEventListener('hashchange', onChange);
      win.addEventListener('popstate', onChange);
      return () => {
        win.removeEventListener('hashchange', onChange);
        win.removeEventListener('popstate', onChange);
      };
    },
  };
}
