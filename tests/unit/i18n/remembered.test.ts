import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REMEMBERED_TEXTS_KEY, rememberedLookup } from '@/lib/i18n/remembered';
import { pageStorage } from '../page-storage';

const CATALOGUES: Record<string, Record<string, string>> = {
  en: { '@@ui_locale': 'en_US', extName: 'DNS Filter Companion', popup_whitelist: 'Whitelist' },
  de: { '@@ui_locale': 'de', extName: 'DNS Filter Companion', popup_whitelist: 'Zulassen' },
};

/** The browser's `i18n.getMessage` in one language, counting the names asked of it. */
function browserCatalogue(language = 'en') {
  const asked: string[] = [];
  const lookup = (name: string) => {
    asked.push(name);
    return CATALOGUES[language]?.[name] ?? '';
  };
  return { asked, lookup, namesAsked: () => asked.filter((name) => name !== '@@ui_locale') };
}

describe('remembered message texts', () => {
  it('asks the browser for each text once: the next page of the same build and language reads them remembered', () => {
    const store = pageStorage();
    const first = browserCatalogue();
    const page1 = rememberedLookup(first.lookup, store, 'build-1');
    expect(page1.lookup('popup_whitelist')).toBe('Whitelist');
    expect(page1.lookup('extName')).toBe('DNS Filter Companion');
    page1.remember();

    const second = browserCatalogue();
    const page2 = rememberedLookup(second.lookup, store, 'build-1');
    expect(page2.lookup('popup_whitelist')).toBe('Whitelist');
    expect(page2.lookup('extName')).toBe('DNS Filter Companion');
    expect(second.namesAsked()).toEqual([]);
  });

  it('asks again in another build, and in another browser language gives that language’s texts', () => {
    const store = pageStorage();
    const page1 = rememberedLookup(browserCatalogue().lookup, store, 'build-1');
    page1.lookup('popup_whitelist');
    page1.remember();

    const newBuild = browserCatalogue();
    expect(rememberedLookup(newBuild.lookup, store, 'build-2').lookup('popup_whitelist')).toBe('Whitelist');
    expect(newBuild.namesAsked()).toEqual(['popup_whitelist']);

    const german = browserCatalogue('de');
    expect(rememberedLookup(german.lookup, store, 'build-1').lookup('popup_whitelist')).toBe('Zulassen');
    expect(german.namesAsked()).toEqual(['popup_whitelist']);
  });

  it('ignores a stored entry that is not its own shape, and still gives the browser’s texts', () => {
    for (const stored of [
      'not json',
      '[]',
      JSON.stringify({ build: 'build-1', locale: 'en_US', texts: ['Allow'] }),
      JSON.stringify({ build: 'build-1', locale: 'en_US', texts: { popup_whitelist: 42 } }),
    ]) {
      const store = pageStorage();
      store.values.set(REMEMBERED_TEXTS_KEY, stored);
      const browser = browserCatalogue();
      expect(rememberedLookup(browser.lookup, store, 'build-1').lookup('popup_whitelist')).toBe('Whitelist');
      expect(browser.namesAsked()).toEqual(['popup_whitelist']);
    }
  });

  it('does not remember a name the catalogue lacks: a newer catalogue may have it', () => {
    const store = pageStorage();
    const page1 = rememberedLookup(browserCatalogue().lookup, store, 'build-1');
    expect(page1.lookup('popup_missing')).toBe('');
    page1.remember();
    const second = browserCatalogue();
    rememberedLookup(second.lookup, store, 'build-1').lookup('popup_missing');
    expect(second.namesAsked()).toEqual(['popup_missing']);
  });

  it('merges with what another page kept meanwhile', () => {
    const store = pageStorage();
    const longOpen = rememberedLookup(browserCatalogue().lookup, store, 'build-1');
    const popup = rememberedLookup(browserCatalogue().lookup, store, 'build-1');
    popup.lookup('popup_whitelist');
    popup.remember();
    longOpen.lookup('extName');
    longOpen.remember();

    const next = browserCatalogue();
    const page = rememberedLookup(next.lookup, store, 'build-1');
    page.lookup('popup_whitelist');
    page.lookup('extName');
    expect(next.namesAsked()).toEqual([]);
  });

  it('without localStorage or without an extension API asks every time, and remembering never throws', () => {
    const browser = browserCatalogue();
    const noStore = rememberedLookup(browser.lookup, undefined, 'build-1');
    noStore.lookup('extName');
    noStore.lookup('extName');
    expect(browser.namesAsked()).toEqual(['extName', 'extName']);

    const full = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const page = rememberedLookup(browserCatalogue().lookup, full, 'build-1');
    page.lookup('extName');
    expect(() => page.remember()).not.toThrow();

    const store = pageStorage();
    const noApi = rememberedLookup(() => '', store, 'build-1');
    expect(noApi.lookup('extName')).toBe('');
    noApi.remember();
    expect(store.values.size).toBe(0);
  });

  it('gives exactly the browser’s text for any names looked up over several pages', () => {
    const names = fc.constantFrom('extName', 'popup_whitelist', 'popup_missing', '@@ui_locale');
    fc.assert(
      fc.property(
        fc.array(fc.array(names, { maxLength: 6 }), { maxLength: 4 }),
        fc.boolean(),
        (pages, german) => {
          const store = pageStorage();
          const language = german ? 'de' : 'en';
          for (const lookups of pages) {
            const page = rememberedLookup(browserCatalogue(language).lookup, store, 'build-1');
            for (const name of lookups) expect(page.lookup(name)).toBe(CATALOGUES[language]?.[name] ?? '');
            page.remember();
          }
        },
      ),
    );
  });
});
