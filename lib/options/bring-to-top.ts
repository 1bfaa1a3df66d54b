/**
 * After a section is chosen (a navigation entry, or back and forward): the section's heading at
 * the top of the first screen, and the keyboard there too, so a screen reader reads on from the
 * section and Tab continues inside it. A view shown for the first time may still be loading: the
 * heading is then waited for (briefly) and focused when it appears, unless the user has moved the
 * focus meanwhile.
 */

export interface SectionTarget {
  /** The heading's text (the navigation entry's name). */
  title: string;
  /** The first section of its view: the view is scrolled to its very top (header included). */
  first: boolean;
}

export interface ScrollingWindow {
  scrollTo(options: ScrollToOptions): void;
}

/** How long a heading of a view still loading is waited for. */
export const HEADING_WAIT_MS = 3000;

/** A section heading shown now (not in a hidden view) with this text. */
function shownHeading(main: HTMLElement, title: string): HTMLElement | undefined {
  return [...main.querySelectorAll<HTMLElement>('h2')].find(
    (heading) => heading.closest('[hidden]') === null && heading.textContent?.trim() === title,
  );
}

function bring(heading: HTMLElement, target: SectionTarget, win: ScrollingWindow) {
  if (target.first) win.scrollTo({ top: 0 });
  else heading.scrollIntoView({ block: 'start' });
  // Focusable by script only: the heading is no stop for Tab.
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

/** Brings the section to the top now, or when its heading appears; returns the cancel of the wait. */
export function bringSectionToTop(
  main: HTMLElement,
  target: SectionTarget,
  win: ScrollingWindow,
  waitMs = HEADING_WAIT_MS,
): () => void {
  const heading = shownHeading(main, target.title);
  if (heading) {
    bring(heading, target, win);
    return () => {};
  }
  // Not rendered yet: the view starts at the top meanwhile.
  win.scrollTo({ top: 0 });
  const focusedBefore = main.ownerDocument.activeElement;
  const observer = new MutationObserver(() => {
    const appeared = shownHeading(main, target.title);
    if (!appeared) return;
    stop();
    if (main.ownerDocument.activeElement === focusedBefore) bring(appeared, target, win);
  });
  const timer = setTimeout(() => stop(), waitMs);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(main, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['hidden'],
  });
  return stop;
}
