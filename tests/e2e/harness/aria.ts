import { type ElementHandle, type Frame, type Locator, type Page, Puppeteer } from 'puppeteer-core';
import { queryAllByRole } from './in-page-role-query.ts';

/**
 * How a name or a text is matched, as in ui-contract.md: a plain string matches the whole text,
 * case-insensitively; `{ startsWith }` and `{ contains }` likewise; a RegExp is used as given.
 * Whitespace is collapsed before matching.
 */
export type TextMatch = string | { startsWith: string } | { contains: string } | RegExp;

export interface RoleOptions {
  /** Only elements whose visible text (innerText) matches. */
  text?: TextMatch;
  /** Only elements inside an element with this role and name. */
  within?: { role: string; name?: TextMatch };
  /** Also match elements that are not rendered or are aria-hidden. */
  includeHidden?: boolean;
}

type Searchable = Page | Frame | ElementHandle<Element>;

const HANDLER_NAME = 'role';

function ensureRoleHandlerRegistered(): void {
  if (Puppeteer.customQueryHandlerNames().includes(HANDLER_NAME)) return;
  Puppeteer.registerCustomQueryHandler(HANDLER_NAME, { queryAll: queryAllByRole });
}

function encodeMatcher(match: TextMatch | undefined) {
  if (match === undefined) return undefined;
  if (typeof match === 'string') return { kind: 'exact', value: match };
  if (match instanceof RegExp) return { kind: 'regex', source: match.source, flags: match.flags };
  if ('startsWith' in match) return { kind: 'startsWith', value: match.startsWith };
  return { kind: 'contains', value: match.contains };
}

/** Percent-encodes everything but [A-Za-z0-9_.~-] so puppeteer's selector parser sees one plain token. */
function encodeForSelector(value: unknown): string {
  return encodeURIComponent(JSON.stringify(value)).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * Runs in the page: the text as rendered, which is what a person reads (hidden descendants are
 * left out), whitespace collapsed. Pass it to `handle.evaluate`.
 */
export function readVisibleText(element: Element): string {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point here
  const rendered = (element as HTMLElement).innerText ?? element.textContent ?? '';
  return rendered.replace(/\s+/g, ' ').trim();
}

/** The argument `queryAllByRole` (in-page-role-query.ts) takes for this role and name. */
export function encodedRoleSpec(role: string, name?: TextMatch, options: RoleOptions = {}): string {
  const spec = {
    role,
    name: encodeMatcher(name),
    text: encodeMatcher(options.text),
    within: options.within && { role: options.within.role, name: encodeMatcher(options.within.name) },
    includeHidden: options.includeHidden,
  };
  return encodeForSelector(spec);
}

/** The puppeteer selector for elements with this role and accessible name (see `byRole`). */
export function roleSelector(role: string, name?: TextMatch, options: RoleOptions = {}): string {
  ensureRoleHandlerRegistered();
  return `::-p-${HANDLER_NAME}(${encodedRoleSpec(role, name, options)})`;
}

export function describeRole(role: string, name?: TextMatch, options: RoleOptions = {}): string {
  const parts = [`role=${role}`];
  if (name !== undefined) parts.push(`name=${formatMatch(name)}`);
  if (options.text !== undefined) parts.push(`text=${formatMatch(options.text)}`);
  if (options.within) parts.push(`within ${options.within.role} ${formatMatch(options.within.name ?? '')}`);
  return parts.join(' ');
}

export function formatMatch(match: TextMatch): string {
  if (typeof match === 'string') return JSON.stringify(match);
  if (match instanceof RegExp) return String(match);
  if ('startsWith' in match) return `starts with ${JSON.stringify(match.startsWith)}`;
  return `contains ${JSON.stringify(match.contains)}`;
}

/**
 * A puppeteer Locator for the element with this role and accessible name: it waits for the
 * element to appear (and, for actions, to be visible and stable), so `.click()`, `.fill()`,
 * `.wait()` need no sleeps.
 *
 * @example byRole(page, 'button', 'Test connection').click()
 * @example byRole(page, 'status', undefined, { text: { startsWith: 'Connected' } }).wait()
 */
export function byRole(
  where: Page | Frame,
  role: string,
  name?: TextMatch,
  options?: RoleOptions,
): Locator<Element> {
  return where.locator(roleSelector(role, name, options)) as Locator<Element>;
}

/** Every matching element now, without waiting. */
export async function allByRole(
  where: Searchable,
  role: string,
  name?: TextMatch,
  options?: RoleOptions,
): Promise<ElementHandle<Element>[]> {
  return (await where.$$(roleSelector(role, name, options))) as ElementHandle<Element>[];
}

/** Waits for the element and returns its visible text, whitespace collapsed. */
export async function textOf(
  where: Page | Frame,
  role: string,
  name?: TextMatch,
  options?: RoleOptions & { timeout?: number },
): Promise<string> {
  const handle = await where.waitForSelector(roleSelector(role, name, options), {
    timeout: options?.timeout,
  });
  if (!handle) throw new Error(`No element: ${describeRole(role, name, options)}`);
  try {
    return await handle.evaluate(readVisibleText);
  } finally {
    await handle.dispose();
  }
}

/** The visible texts of all `status` regions now, in document order. */
export async function statusTexts(where: Page | Frame): Promise<string[]> {
  const handles = await allByRole(where, 'status');
  const texts = await Promise.all(handles.map((handle) => handle.evaluate(readVisibleText)));
  await Promise.all(handles.map((handle) => handle.dispose()));
  return texts;
}

/**
 * Waits until some `status` region's text matches and returns that text. On timeout the error
 * lists what the status regions did say, which is usually the failure reason worth reading.
 */
export async function waitForStatus(
  where: Page | Frame,
  text: TextMatch,
  options: { name?: TextMatch; within?: RoleOptions['within']; timeout?: number } = {},
): Promise<string> {
  try {
    return await textOf(where, 'status', options.name, {
      text,
      within: options.within,
      timeout: options.timeout,
    });
  } catch (error) {
    const seen = await statusTexts(where).catch(() => ['(page unavailable)']);
    throw new Error(
      `No status region with text ${formatMatch(text)}; status regions say: ${JSON.stringify(seen)}`,
      { cause: error },
    );
  }
}

/**
 * Chooses the option whose accessible name matches in the combobox with this name: a native
 * <select> is set the way a user's choice sets it (input and change events); a custom combobox is
 * opened and its `option` clicked.
 */
export async function chooseOption(where: Page | Frame, comboboxName: TextMatch, option: TextMatch) {
  const combobox = await byRole(where, 'combobox', comboboxName).waitHandle();
  try {
    const isSelect = await combobox.evaluate((element) => element.localName === 'select');
    if (!isSelect) {
      await combobox.click();
      await byRole(where, 'option', option).click();
      return;
    }
    const [optionHandle] = await allByRole(combobox, 'option', option, { includeHidden: true });
    if (!optionHandle) {
      const offered = await combobox.evaluate((select) =>
        [...(select as HTMLSelectElement).options].map((o) => o.textContent?.trim()),
      );
      throw new Error(
        `Combobox ${formatMatch(comboboxName)} has no option ${formatMatch(option)}; it offers ${JSON.stringify(offered)}`,
      );
    }
    const value = await optionHandle.evaluate((o) => (o as HTMLOptionElement).value);
    await optionHandle.dispose();
    await combobox.select(value);
  } finally {
    await combobox.dispose();
  }
}
