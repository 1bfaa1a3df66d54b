/**
 * Every text a user reads, in the browser's language. Keys and their `{named}` placeholders come
 * from locales/en.yml, typed by @wxt-dev/i18n's generated structure; the browser picks the locale
 * and holds the catalogue (`i18n.getMessage`), so no page bundles one and the popup stays small.
 *
 * Framework-free: lib/ code calls `t` like the components do. Where no extension API exists
 * (Node tests, scripts) the host installs its own lookup with `useMessageLookup`.
 */
import type { GeneratedI18nStructure } from '#i18n';
import { isolateText } from './bidi';

export { isolatedSegments, isolateText } from './bidi';

type Structure = GeneratedI18nStructure;

/** A message name as written in locales/*.yml (`options.setup.save`); the browser's own `@@…` names are left out. */
export type MessageKey = Exclude<keyof Structure, `@@${string}`>;

type NamesOf<K extends MessageKey> = Structure[K] extends { namedSubstitutions: readonly (infer N)[] }
  ? N & string
  : never;
type Params<Names extends string> = [Names] extends [never] ? [] : [params: Record<Names, string | number>];

/** Keys of plain messages and of messages with plural forms (`1: …` / `n: …` in the yml). */
export type PlainKey = { [K in MessageKey]: Structure[K] extends { plural: true } ? never : K }[MessageKey];
export type PluralKey = { [K in MessageKey]: Structure[K] extends { plural: true } ? K : never }[MessageKey];

/** Finds the message of the active locale by its catalogue name (`options_setup_save`); '' when missing. */
export type MessageLookup = (name: string) => string;

/** The browser's catalogue (`i18n.getMessage`); '' where there is no extension API. */
export function platformLookup(name: string): string {
  type PlatformI18n = { i18n?: { getMessage: MessageLookup } };
  const scope = globalThis as { browser?: PlatformI18n; chrome?: PlatformI18n };
  const api = scope.browser?.i18n ?? scope.chrome?.i18n;
  return api ? api.getMessage(name) : '';
}

let lookup: MessageLookup = platformLookup;

/**
 * The texts this page has looked up, by catalogue name. A page's catalogue never changes while it
 * is open (the browser reloads extension pages on an update), and the same text is asked for many
 * times: "hours" by each of "Allow for a while"'s buttons, the language by every formatted date of
 * a table. Each `i18n.getMessage` goes through the browser's API layer (docs/performance.md,
 * "Against the popup before the start path was simplified").
 */
let looked = new Map<string, string>();

function lookedUp(name: string): string {
  let text = looked.get(name);
  if (text === undefined) {
    text = lookup(name);
    looked.set(name, text);
  }
  return text;
}

/** Replaces where messages come from (Node tests, scripts); returns a function that puts the previous lookup back. */
export function useMessageLookup(next: MessageLookup): () => void {
  const previous = lookup;
  lookup = next;
  looked = new Map();
  return () => {
    lookup = previous;
    looked = new Map();
  };
}

const NAMED = /\{([A-Za-z0-9_]+)\}/g;

function message(key: MessageKey): string {
  // A missing message shows its key rather than nothing, so the gap is seen and reported.
  return lookedUp(key.replaceAll('.', '_')) || key;
}

/**
 * `text` cut at its `{named}` placeholders, each replaced by its value (an unknown name stays as
 * written). One pass: a value that itself contains `{name}` (user input) is never substituted
 * again. Every text value is direction-isolated (./bidi.ts): a value from the service cannot
 * reorder the sentence around it.
 */
function filled<T>(text: string, values: Record<string, T | string | number>): (T | string)[] {
  return text
    .split(NAMED)
    .map((piece, index) => {
      // split() with a capture group puts each placeholder's name at the odd indexes.
      if (index % 2 === 0) return piece;
      const value = Object.hasOwn(values, piece) ? values[piece] : `{${piece}}`;
      if (typeof value === 'string') return isolateText(value);
      return typeof value === 'number' ? String(value) : (value as T);
    })
    .filter((piece) => piece !== '');
}

/** The language of the catalogue in use (`en`, `de`): for `<html lang>` and number and date formats. */
export function messageLocale(): string {
  return lookedUp('locale') || 'en';
}

/**
 * One formatter per language and kind, built once: `toLocaleString(locale)` builds a new one on
 * every call, the popup's first view formats several numbers and a table a few hundred dates
 * (docs/performance.md).
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>();

function formatterOf<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>(
  kind: string,
  make: (locale: string) => F,
): F {
  const locale = messageLocale();
  const key = `${kind} ${locale}`;
  let format = formatters.get(key) as F | undefined;
  if (format === undefined) {
    format = make(locale);
    formatters.set(key, format);
  }
  return format;
}

/**
 * Every catalogue's language writes a whole number below 1,000 as its plain digits (checked for
 * each catalogue in tests/unit/i18n/numbers.test.ts): those skip the formatter, whose first use
 * in a page builds the language's number data (the popup's "1 hour · 8 hours · 24 hours" asked
 * for it before its first view).
 */
const PLAIN_BELOW = 1000;

/** A count written the catalogue's way (1,234 in English, 1.234 in German). */
export function formatNumber(value: number): string {
  if (Number.isInteger(value) && value >= 0 && value < PLAIN_BELOW) return String(value);
  return formatterOf('number', (locale) => new Intl.NumberFormat(locale)).format(value);
}

/**
 * A moment as a medium date and a short time, in the catalogue's language ("Nov 28, 2026, 3:14 AM");
 * with `seconds`, the time has them ("Nov 28, 2026, 3:14:05 AM"): for moments a person must tell
 * apart within a minute (History's snapshots, docs/history.md).
 */
export function formatDateTime(at: number, precision: DateTimePrecision = 'minutes'): string {
  return dateTimeFormatter(precision).format(at);
}

/**
 * A calendar day named `yyyy-mm-dd` (a log day: the service's own calendar) in the catalogue's
 * language ("Sun, Nov 29, 2026"); read as a UTC date so no time zone moves it a day, and as it is
 * when it is not a date.
 */
export function formatDay(day: string): string {
  const at = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(at)) return day;
  return formatterOf(
    'day',
    (locale) =>
      new Intl.DateTimeFormat(locale, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }),
  ).format(at);
}

type DateTimePrecision = 'minutes' | 'seconds';

function dateTimeFormatter(precision: DateTimePrecision): Intl.DateTimeFormat {
  const timeStyle = precision === 'seconds' ? 'medium' : 'short';
  return formatterOf(
    `date-${timeStyle}`,
    (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle }),
  );
}

const TIME_FIELDS: ReadonlySet<string> = new Set([
  'hour',
  'minute',
  'second',
  'dayPeriod',
  'fractionalSecond',
]);

/**
 * formatDateTime's text as its date and its time, each to be kept on one line, with the space
 * between them the one place a narrow table may break it ("Nov 28, 2026," over "3:14:05 AM",
 * never "Nov 28," over "2026, 3:14:05 AM"). Joined with a space, they read as formatDateTime's.
 */
export function formatDateTimeLines(at: number, precision: DateTimePrecision = 'minutes'): string[] {
  const formatter = dateTimeFormatter(precision);
  // Cut formatDateTime's own text: the parts may space a day period differently ("\u202fAM").
  const whole = formatter.format(at);
  const parts = formatter.formatToParts(at);
  // The time's first field; the date comes before it, as both catalogues' languages write them.
  const turn = parts.findIndex((part) => TIME_FIELDS.has(part.type));
  if (turn <= 0) return [whole];
  const length = parts.slice(0, turn).reduce((sum, part) => sum + part.value.length, 0);
  const first = whole.slice(0, length);
  // The break takes the separator's last space (", " keeps its comma on the first line); with no
  // space there, the text stays whole.
  return first.endsWith(' ') ? [first.trimEnd(), whole.slice(length)] : [whole];
}

/** A space no line breaks at: one time is never split over two lines ("2:29 / PM"). */
export const NO_BREAK_SPACE = '\u00a0';

/**
 * A time of day as the catalogue's language writes it, with its own clock ("8:00 PM" in English,
 * "20:00" in German), as `formatDateTime` does, in `timeZone` (docs/schedules.md). Its spaces do
 * not break: browsers' ICU puts a plain space or a narrow no-break one before "PM".
 */
export function formatTimeOfDay(at: number, timeZone: string): string {
  return formatterOf(
    `time ${timeZone}`,
    (locale) => new Intl.DateTimeFormat(locale, { timeZone, timeStyle: 'short' }),
  )
    .format(at)
    .replace(/\s/g, NO_BREAK_SPACE);
}

/** The short name of the day of `at` in `timeZone`, in the catalogue's language ("Mon", "Mo."). */
export function formatShortWeekday(at: number, timeZone: string): string {
  return formatterOf(
    `weekday ${timeZone}`,
    (locale) => new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short' }),
  ).format(at);
}

/** Several things as one phrase, in the catalogue's language ("Gaming and Social networks"). */
export function formatList(items: readonly string[]): string {
  return formatterOf('list', (locale) => new Intl.ListFormat(locale, { type: 'conjunction' })).format(items);
}

/** The text of `key` in the browser's language, with its `{named}` placeholders filled. */
export function t<K extends PlainKey>(key: K, ...params: Params<NamesOf<K>>): string {
  const text = message(key);
  return params[0] === undefined ? text : filled(text, params[0]).join('');
}

/**
 * The text of `key` cut at its placeholders, each replaced by the caller's value (a component for
 * words shown in bold, a link), so a translation can put them where its grammar wants them.
 */
export function tParts<K extends PlainKey, T>(
  key: K,
  parts: Record<NamesOf<K>, T | string | number>,
): (T | string)[] {
  return filled(message(key), parts as Record<string, T | string | number>);
}

/**
 * The plural form of `key` for `count` (forms "1 | n", or "0 | 1 | n", as @wxt-dev/i18n compiles
 * them); `{count}` is filled with the number, formatted for the catalogue's language.
 */
export function tn<K extends PluralKey>(
  key: K,
  count: number,
  ...params: Params<Exclude<NamesOf<K>, 'count'>>
): string {
  const forms = message(key).split(' | ');
  const form =
    forms.length === 3
      ? forms[count === 0 ? 0 : count === 1 ? 1 : 2]
      : forms[forms.length === 2 && count !== 1 ? 1 : 0];
  return filled(form ?? '', { ...params[0], count: formatNumber(count) }).join('');
}
