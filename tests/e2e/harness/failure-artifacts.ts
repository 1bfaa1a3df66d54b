import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Page } from 'puppeteer-core';
import type { RunnerTask } from 'vitest';
import type { BrowserOutput } from './browser-output.ts';
import { E2E_RESULTS_DIR, REPO_ROOT } from './paths.ts';

/** What a browser session can show about itself when a test fails. */
export interface FailureEvidenceSource {
  browserName: string;
  /** Every open page, extension pages and popups included. */
  pages(): Promise<Page[]>;
  output: BrowserOutput;
}

const STEP_TIMEOUT_MS = 5_000;

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'unnamed'
  );
}

/** `<file without .e2e.ts> -- <describe> -- <test>`, safe as one folder name. */
export function testFolderName(task: RunnerTask): string {
  const names: string[] = [];
  for (
    let current: RunnerTask | undefined = task;
    current && current !== task.file;
    current = current.suite
  ) {
    names.unshift(current.name);
  }
  const file =
    task.file?.name
      .split('/')
      .pop()
      ?.replace(/\.e2e\.ts$/, '') ?? 'unknown-file';
  return [file, ...names].map(slug).join('--');
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Saves a screenshot of every open page, their URLs and titles, the extension console output and
 * the browser's whole output under test-results/e2e/<test>/<browser>/, and prints where.
 * Never throws: evidence gathering must not hide the test's own failure.
 */
export async function saveFailureArtifacts(task: RunnerTask, source: FailureEvidenceSource): Promise<string> {
  const dir = join(E2E_RESULTS_DIR, testFolderName(task), source.browserName);
  const notes: string[] = [];
  try {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });

    const listed = await withTimeout(source.pages(), 'listing pages').catch((error: unknown) => {
      notes.push(`Could not list pages: ${String(error)}`);
      return [] as Page[];
    });
    // A popup closes as soon as another page takes focus, so it goes first and keeps its focus.
    const isPopup = (page: Page) => page.url().includes('/popup.html');
    const pages = [...listed.filter(isPopup), ...listed.filter((page) => !isPopup(page))];
    const pageLines: string[] = [];
    for (const [index, page] of pages.entries()) {
      const file = `page-${index + 1}.png`;
      // Firefox keeps a stale URL for a tab the extension navigated itself; ask the document.
      const url = await withTimeout(
        page.evaluate(() => location.href),
        'reading the URL',
      ).catch(() => page.url());
      const title = await withTimeout(page.title(), 'reading the title').catch(() => '?');
      try {
        // Chromium does not paint background tabs, so their screenshots would never come.
        if (!isPopup(page)) {
          await withTimeout(page.bringToFront(), 'bringing the page to front').catch(() => {});
        }
        await withTimeout(
          page.screenshot({ path: join(dir, file) as `${string}.png`, fullPage: true }),
          'screenshot',
        );
        pageLines.push(`${file}\t${url}\t${title}`);
      } catch (error) {
        pageLines.push(`(no screenshot: ${String(error)})\t${url}\t${title}`);
      }
    }
    await writeFile(join(dir, 'pages.txt'), `${pageLines.join('\n')}\n`);
    await writeFile(join(dir, 'console.log'), `${source.output.consoleLines().join('\n')}\n`);
    await writeFile(join(dir, 'browser-output.log'), `${source.output.lines().join('\n')}\n`);
    if (notes.length) await writeFile(join(dir, 'notes.txt'), `${notes.join('\n')}\n`);
    console.error(
      `[e2e] ${source.browserName}: ${pages.length} screenshot(s) and console output of the failed test saved in ${relative(REPO_ROOT, dir)}/`,
    );
  } catch (error) {
    console.error(`[e2e] could not save failure artifacts in ${dir}: ${String(error)}`);
  }
  return dir;
}
