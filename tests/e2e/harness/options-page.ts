import type { Page } from 'puppeteer-core';
import { allByRole, byRole, chooseOption, readVisibleText, type TextMatch } from './aria.ts';

export type ApiFormName = 'A' | 'B';

export interface ExtensionSetup {
  /** Service origin, e.g. the emulator's `http://127.0.0.1:<port>`. */
  baseUrl: string;
  key: string;
  /** A: the option whose name contains `/api` but not `/api/v1/`; B: the one containing `/api/v1/`. */
  form: ApiFormName;
}

const FORM_OPTION: Record<ApiFormName, TextMatch> = {
  A: /\/api(?!\/v1\/)/i,
  B: { contains: '/api/v1/' },
};

/**
 * The accessible name of the Logs section's hourly chart for a log day (`yyyy-mm-dd`), which the
 * page writes in the English catalogue's words ("Queries per hour on Sun, Nov 29, 2026: …").
 */
export function hourlyChartOf(day: string): TextMatch {
  const words = new Intl.DateTimeFormat('en', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(Date.parse(`${day}T00:00:00Z`));
  return { startsWith: `Queries per hour on ${words}:` };
}

/** Progress texts ("Testing the connection…") are not outcomes. */
const isProgress = (text: string) => /(…|\.\.\.)$/.test(text);

async function fieldValue(page: Page, name: string): Promise<string> {
  return byRole(page, 'textbox', name)
    .map((element) => (element as HTMLInputElement).value)
    .wait();
}

async function visibleCount(page: Page, role: string, name?: TextMatch): Promise<number> {
  const handles = await allByRole(page, role, name);
  await Promise.all(handles.map((handle) => handle.dispose()));
  return handles.length;
}

/**
 * Opens a section of the options page through its navigation, as a person would (ui-contract.md:
 * a link named as the section): on a narrow window the "Sections" menu button opens the
 * navigation first. Waits until the section's heading is shown.
 */
export async function openSection(page: Page, section: TextMatch): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if ((await visibleCount(page, 'navigation')) > 0) break;
    if ((await visibleCount(page, 'button', 'Sections')) > 0) {
      await byRole(page, 'button', 'Sections').click();
      continue;
    }
    if (Date.now() > deadline) throw new Error('The options page shows no navigation');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await byRole(page, 'link', section, { within: { role: 'navigation' } }).click();
  await byRole(page, 'heading', section).wait();
}

/** Opens the section unless it is shown already. */
export async function showSection(page: Page, section: string): Promise<void> {
  if ((await visibleCount(page, 'region', section)) > 0) return;
  await openSection(page, section);
}

/**
 * Opens Setup, fills it by role and name (ui-contract.md) and presses Save. Returns the text
 * the status regions show once saving is over. Without a key saved before, Save also tests the
 * connection and the page shows the Overview.
 */
export async function configureExtension(page: Page, setup: ExtensionSetup): Promise<string> {
  // The page loads stored settings into the form right after it renders; a person cannot type
  // before that, but a test can, so fill until the values stick.
  await openSection(page, 'Setup');
  for (let attempt = 1; ; attempt++) {
    await byRole(page, 'textbox', 'API key').fill(setup.key);
    await byRole(page, 'textbox', 'Base URL').fill(setup.baseUrl);
    await chooseOption(page, 'API form', FORM_OPTION[setup.form]);
    const stuck =
      (await fieldValue(page, 'API key')) === setup.key &&
      (await fieldValue(page, 'Base URL')) === setup.baseUrl;
    if (stuck) break;
    if (attempt === 3) throw new Error('The Setup fields did not keep the values typed into them');
  }
  return pressAndWaitForOutcome(page, 'Save');
}

/**
 * Presses "Test connection" and returns the outcome shown in a status region: text starting with
 * "Connected" on success, otherwise the failure reason.
 */
export async function testConnection(page: Page): Promise<string> {
  await showSection(page, 'Setup');
  return pressAndWaitForOutcome(page, 'Test connection');
}

interface StatusReading {
  text: string;
  changed: boolean;
}

type ChangeWatch = Window & { __e2eStatusChanged?: WeakSet<Element>; __e2eStatusKnown?: WeakSet<Element> };

/** Starts noting which status regions change, so an outcome equal to the previous one still counts. */
async function watchStatusRegions(page: Page): Promise<void> {
  for (const handle of await allByRole(page, 'status')) {
    await handle.evaluate((element) => {
      const watch = window as ChangeWatch;
      watch.__e2eStatusChanged ??= new WeakSet();
      watch.__e2eStatusKnown ??= new WeakSet();
      watch.__e2eStatusChanged.delete(element);
      if (!watch.__e2eStatusKnown.has(element)) {
        watch.__e2eStatusKnown.add(element);
        new MutationObserver(() => watch.__e2eStatusChanged?.add(element)).observe(element, {
          childList: true,
          subtree: true,
          characterData: true,
        });
      }
    });
    await handle.dispose();
  }
}

async function readStatusRegions(page: Page): Promise<StatusReading[]> {
  const readings: StatusReading[] = [];
  for (const handle of await allByRole(page, 'status')) {
    readings.push({
      text: await handle.evaluate(readVisibleText),
      changed: await handle.evaluate((element) => {
        const watch = window as ChangeWatch;
        // A region that appeared after the press is new, hence changed.
        return !watch.__e2eStatusKnown?.has(element) || Boolean(watch.__e2eStatusChanged?.has(element));
      }),
    });
    await handle.dispose();
  }
  return readings;
}

/**
 * Presses a button and waits until a status region that changed since the press shows a final
 * text (not a progress text ending in an ellipsis). Returns that text.
 */
export async function pressAndWaitForOutcome(
  page: Page,
  buttonName: TextMatch,
  timeoutMs = 15_000,
): Promise<string> {
  await watchStatusRegions(page);
  await byRole(page, 'button', buttonName).click();
  const deadline = Date.now() + timeoutMs;
  let readings: StatusReading[] = [];
  while (Date.now() < deadline) {
    readings = await readStatusRegions(page);
    const outcome = readings.find(({ text, changed }) => changed && text && !isProgress(text));
    if (outcome) return outcome.text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(
    `After pressing ${String(buttonName)}, no status region showed an outcome within ${timeoutMs} ms; they say ${JSON.stringify(readings.map((r) => r.text))}`,
  );
}
