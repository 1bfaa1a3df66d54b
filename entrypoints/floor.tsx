/**
 * The benchmark's floor (scripts/bench): the least an extension page of this project can do
 * before showing something that depends on stored data. One `storage.local` read, one word, one
 * mark. The popup's warm time to verdict is judged against it.
 *
 * A script bundled on its own (floor.html loads it; wxt.config.ts writes that page), not a page
 * entrypoint: pages built together share chunks, and a page that needs only Preact and the
 * browser API would split the popup's shared chunk in two, so the bench would measure a popup
 * loading more files than the shipped one. Bench builds only, never shipped.
 */
import { render } from 'preact';
import { browser } from 'wxt/browser';
import { FloorWord } from '@/components/bench/FloorWord';

export default defineUnlistedScript(() => {
  // Started before the first render, as the popup starts its reads.
  const stored = browser.storage.local.get('connection');
  render(<FloorWord stored={stored} />, document.getElementById('app') as HTMLElement);
});
