/**
 * After a section is chosen (a navigation entry, back and forward, or the page opened at its
 * address): the section's heading at the top of the first screen, and the keyboard there too, so
 * a screen reader reads on from the section and Tab continues inside it. A view shown for the
 * first time may still be loading: the heading is kept at the top (briefly) while it loads,
 * unless the person has taken the page over meanwhile.
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

/** How long the heading of a view still loading is kept at the top. */
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

/** What the person does to take the page over: from then on, the page is theirs. */
const TAKING_OVER = ['keydown', 'pointerdown', 'wheel', 'touchstart'] as const;

/**
 * Brings the section to the top now, and again at each change of the page for `waitMs`: its
 * heading may not be rendered yet, may be rendered again once its content has loaded (the focus
 * then falls to the body), and the sections above it may grow as theirs loads, pushing it down.
 * It stops once the person scrolls, types or clicks, or moves the focus. Returns the stop.
 */
export function bringSectionToTop(
  main: HTMLElement,
  target: SectionTarget,
  win: ScrollingWindow,
  waitMs = HEADING_WAIT_MS,
): () => void {
  const doc = main.ownerDocument;
  const focusedBefore = doc.activeElement;
  let brought: HTMLElement | null = null;
  /** False while the heading is not rendered. */
  const attempt = (): boolean => {
    const heading = shownHeading(main, target.title);
    if (!heading) return false;
    const focus = doc.activeElement;
    if (focus !== focusedBefore && focus !== brought && focus !== doc.body && focus !== null) stop();
    else {
      brought = heading;
      bring(heading, target, win);
    }
    return true;
  };
  const observer = new MutationObserver(attempt);
  const timer = setTimeout(() => stop(), waitMs);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
    for (const type of TAKING_OVER) doc.removeEventListener(type, stop, true);
  }
  for (const type of TAKING_OVER) doc.addEventListener(type, stop, { capture: true, passive: true });
  // Not rendered yet: the view starts at the top meanwhile.
  if (!attempt()) win.scrollTo({ top: 0 });
  observer.observe(main, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['hidden'],
  });
  return stop;
}
