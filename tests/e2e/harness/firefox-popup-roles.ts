/**
 * Role and accessible-name queries (ui-contract.md) in Firefox's real popup, which is read
 * through an extension page (firefox-popup.ts) rather than as a puppeteer Page: the same in-page
 * resolver as `byRole` (in-page-role-query.ts) runs against the popup's document.
 */
import { describeRole, encodedRoleSpec, formatMatch, type RoleOptions, type TextMatch } from './aria.ts';
import type { FirefoxPopup } from './firefox-popup.ts';
import { queryAllByRole } from './in-page-role-query.ts';

/** A function body run in the popup: `found` holds the matching elements, `text(e)` reads one. */
function withMatches(role: string, name: TextMatch | undefined, options: RoleOptions, body: string): string {
  return `
    const queryAllByRole = ${queryAllByRole.toString()};
    const text = (element) => (element.innerText ?? element.textContent ?? '').replace(/\\s+/g, ' ').trim();
    const found = queryAllByRole(document, ${JSON.stringify(encodedRoleSpec(role, name, options))});
    ${body}`;
}

/** The visible texts of the matching elements now, without waiting. */
export function popupTexts(
  popup: FirefoxPopup,
  role: string,
  name?: TextMatch,
  options: RoleOptions = {},
): Promise<string[]> {
  return popup.run<string[]>(withMatches(role, name, options, 'return found.map(text);'));
}

/** Waits for the first matching element and returns its visible text. */
export async function popupTextOf(
  popup: FirefoxPopup,
  role: string,
  name?: TextMatch,
  options: RoleOptions & { timeoutMs?: number } = {},
): Promise<string> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const [first] = await popupTexts(popup, role, name, options);
    if (first !== undefined) return first;
    if (Date.now() > deadline) {
      const seen = await popupTexts(popup, 'status').catch(() => ['(popup unavailable)']);
      throw new Error(
        `Firefox popup: no ${describeRole(role, name, options)}; status regions say: ${JSON.stringify(seen)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until the status region named `name` shows text matching `text`; returns it. */
export function popupStatus(popup: FirefoxPopup, text: TextMatch, name?: TextMatch): Promise<string> {
  return popupTextOf(popup, 'status', name, { text });
}

/** Waits for the element and clicks it (a DOM click: the popup's own buttons need no gesture). */
export async function clickInPopup(popup: FirefoxPopup, role: string, name?: TextMatch): Promise<void> {
  await popupTextOf(popup, role, name);
  await popup.run(withMatches(role, name, {}, 'found[0].click();'));
}

/** Chooses an option of a native <select> the way a user's choice does (input and change events). */
export async function chooseInPopup(
  popup: FirefoxPopup,
  comboboxName: TextMatch,
  option: string,
): Promise<void> {
  await popupTextOf(popup, 'combobox', comboboxName);
  const chosen = await popup.run<boolean>(
    withMatches(
      'combobox',
      comboboxName,
      {},
      `const select = found[0];
      const wanted = [...select.options].find((o) => o.textContent.trim() === ${JSON.stringify(option)});
      if (!wanted) return false;
      select.value = wanted.value;
      select.dispatchEvent(new view.Event('input', { bubbles: true }));
      select.dispatchEvent(new view.Event('change', { bubbles: true }));
      return true;`,
    ),
  );
  if (!chosen) throw new Error(`Combobox ${formatMatch(comboboxName)} has no option "${option}"`);
}

/** The current value of the combobox (a native <select>). */
export function popupSelectValue(popup: FirefoxPopup, comboboxName: TextMatch): Promise<string | undefined> {
  return popup.run(withMatches('combobox', comboboxName, {}, 'return found[0]?.value;'));
}

/** The text of the option the combobox (a native <select>) shows as chosen; waits for it. */
export async function popupChosenOption(popup: FirefoxPopup, comboboxName: TextMatch): Promise<string> {
  await popupTextOf(popup, 'combobox', comboboxName);
  return popup.run<string>(
    withMatches(
      'combobox',
      comboboxName,
      {},
      `const select = found[0];
      return select.options[select.selectedIndex]?.textContent.trim() ?? '';`,
    ),
  );
}
