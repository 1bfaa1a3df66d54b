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
