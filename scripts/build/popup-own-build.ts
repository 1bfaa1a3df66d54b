import type { EntrypointGroup } from 'wxt';

/**
 * Moves the popup out of the build step WXT shares among the extension's pages, into one of its
 * own (the `entrypoints:grouped` hook). Built with the options page, everything the two pages
 * share went into a chunk of its own, so the popup loaded two modules as it opened; built
 * alone, everything it runs before its first view is one module, and only what it loads later
 * (the extras, the API client, the schemas) is split off: one request fewer before the verdict
 * (docs/performance.md has the figures). The price is size on disk, not time: code both pages
 * load later is in the package twice.
 */
export function buildPopupAlone(groups: EntrypointGroup[]): void {
  for (const group of groups) {
    if (!Array.isArray(group) || group.length < 2) continue;
    const index = group.findIndex((entrypoint) => entrypoint.type === 'popup');
    if (index === -1) continue;
    const popup = group.splice(index, 1);
    // Still a list: WXT builds a list of pages as pages (multi-page mode), one entry as a script.
    groups.push(popup);
    return;
  }
}
