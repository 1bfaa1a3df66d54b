import { afterEach, describe, expect, it, vi } from 'vitest';
import { bringSectionToTop } from '@/lib/options/bring-to-top';

afterEach(() => {
  document.body.innerHTML = '';
});

function page(html: string) {
  const main = document.createElement('main');
  main.innerHTML = html;
  document.body.append(main);
  return main;
}

const heading = (main: HTMLElement, text: string) =>
  [...main.querySelectorAll('h2')].find((h) => h.textContent === text) as HTMLElement;

describe('bringSectionToTop', () => {
  it('focuses the shown heading of that name, not a hidden view’s, and scrolls a later section into view', () => {
    const main = page('<div hidden><h2>Blocklist</h2></div><div><h2>Categories</h2><h2>Blocklist</h2></div>');
    const win = { scrollTo: vi.fn() };
    const shown = heading(main, 'Blocklist');
    const blocklist = main.querySelectorAll('h2')[2] as HTMLElement;
    shown.scrollIntoView = vi.fn();
    blocklist.scrollIntoView = vi.fn();
    bringSectionToTop(main, { title: 'Blocklist', first: false }, win);
    expect(document.activeElement).toBe(blocklist);
    expect(blocklist.scrollIntoView).toHaveBeenCalledWith({ block: 'start' });
    expect(win.scrollTo).not.toHaveBeenCalled();
  });

  it('waits for the heading of a view still loading, and focuses it when it appears', async () => {
    const main = page('<p>Loading…</p>');
    const win = { scrollTo: vi.fn() };
    bringSectionToTop(main, { title: 'Overview', first: true }, win);
    expect(win.scrollTo).toHaveBeenCalledWith({ top: 0 });
    main.innerHTML = '<section><h2>Overview</h2></section>';
    await vi.waitFor(() => expect(document.activeElement).toBe(heading(main, 'Overview')));
  });

  it('leaves the focus where the user moved it while the view was loading', async () => {
    const main = page('<p>Loading…</p><button>Elsewhere</button>');
    bringSectionToTop(main, { title: 'Overview', first: true }, { scrollTo: vi.fn() });
    const button = main.querySelector('button') as HTMLButtonElement;
    button.focus();
    main
      .querySelector('p')
      ?.replaceWith(Object.assign(document.createElement('h2'), { textContent: 'Overview' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(button);
  });
});

describe('bringSectionToTop while the view loads', () => {
  it('brings the heading back when it is rendered again or pushed down, until the person takes over', async () => {
    const main = page('<section><p>Loading categories…</p></section><section><h2>Whitelist</h2></section>');
    const scrolled: HTMLElement[] = [];
    const spyScroll = (element: HTMLElement) => {
      element.scrollIntoView = () => scrolled.push(element);
      return element;
    };
    spyScroll(heading(main, 'Whitelist'));
    bringSectionToTop(main, { title: 'Whitelist', first: false }, { scrollTo: vi.fn() });
    expect(scrolled).toHaveLength(1);

    // The categories above load, and the whitelist's section renders its heading anew.
    const again = spyScroll(Object.assign(document.createElement('h2'), { textContent: 'Whitelist' }));
    main
      .querySelector('p')
      ?.replaceWith(Object.assign(document.createElement('div'), { textContent: 'Adult' }));
    heading(main, 'Whitelist').replaceWith(again);
    await vi.waitFor(() => expect(document.activeElement).toBe(again));
    expect(scrolled.at(-1)).toBe(again);

    // A key pressed: the page is the person's; what loads after moves nothing.
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown' }));
    const count = scrolled.length;
    const third = spyScroll(Object.assign(document.createElement('h2'), { textContent: 'Whitelist' }));
    again.replaceWith(third);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(scrolled).toHaveLength(count);
    expect(document.activeElement).not.toBe(third);
  });
});
