/**
 * The texts a page looked up, remembered in its own localStorage for the next page of the same
 * build and browser language. Each `i18n.getMessage` is a call into the browser's extension
 * bindings, and the popup's first view makes about forty of them: in Chromium's real popup they
 * were a sixth of the first render (CPU profile; docs/architecture.md, "Where the popup's time
 * goes"). A remembered text is one map lookup.
 *
 * Only texts the browser gave are remembered, and only for the build and the browser language
 * they came from (`@@ui_locale`, asked of the browser on every page): another build may word a
 * message differently, and a browser restarted in another language picks another catalogue. The
 * texts are the extension's own catalogue, shown as text, never as markup.
 */
import { type PageRecordStore, pageRecord } from '@/lib/settings/page-record';
import type { MessageLookup } from './index';

/** The localStorage key of the remembered texts. */
export const REMEMBERED_TEXTS_KEY = 'messageTexts';
/** More names than the catalogue's pages use means the entry is not ours: it is replaced. */
const MAX_TEXTS = 600;

export interface RememberedLookup {
  /** The text of a catalogue name: remembered, or asked of the browser (and remembered). */
  lookup: MessageLookup;
  /** Keeps the texts asked of the browser for the next page; never throws. Call once idle. */
  remember(): void;
}

/**
 * `platform`'s texts, remembered in `store` for pages of `build` in the same browser language.
 * Without a store, or where the browser names no language (no extension API), every text is
 * asked of `platform`.
 */
export function rememberedLookup(
  platform: MessageLookup,
  store: PageRecordStore | undefined,
  build: string,
): RememberedLookup {
  const locale = platform('@@ui_locale');
  if (store === undefined || locale === '') return { lookup: platform, remember: () => {} };
  const record = pageRecord(store, REMEMBERED_TEXTS_KEY, { build, locale }, 'texts', MAX_TEXTS);
  const texts = record.read();
  const asked = new Map<string, string>();
  return {
    lookup(name) {
      const known = texts.get(name);
      if (known !== undefined) return known;
      const text = platform(name);
      // A missing message ('') is asked again next time: it may be a name of a newer catalogue.
      if (text !== '') {
        texts.set(name, text);
        asked.set(name, text);
      }
      return text;
    },
    remember() {
      if (asked.size === 0) return;
      record.save(asked);
      asked.clear();
    },
  };
}
