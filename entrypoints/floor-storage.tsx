/**
 * A second floor for the benchmark (scripts/bench): the floor page plus the extension's storage
 * layer (lib/settings/storage.ts, its zod schemas and WXT storage), reading one validated item.
 * Its time, between the floor's and the popup's, tells how much of the popup's time goes to that
 * shared layer rather than to the popup itself. Bundled on its own like the floor (floor.tsx says
 * why); bench builds only, never shipped.
 */
import { render } from 'preact';
import { FloorWord } from '@/components/bench/FloorWord';
import { connectionItem } from '@/lib/settings/storage';

export default defineUnlistedScript(() => {
  const stored = connectionItem.getValue();
  render(<FloorWord stored={stored} />, document.getElementById('app') as HTMLElement);
});
