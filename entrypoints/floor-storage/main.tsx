/**
 * A second floor for the benchmark (scripts/bench): the floor page plus the extension's storage
 * layer (lib/settings/storage.ts, its zod schemas and WXT storage), reading one validated item.
 * Its time, between the floor's and the popup's, tells how much of the popup's time goes to that
 * shared layer rather than to the popup itself. Bench builds only, never shipped.
 */
import { render } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { connectionItem } from '@/lib/settings/storage';

const stored = connectionItem.getValue();

function FloorWithStorage() {
  const [word, setWord] = useState<string | null>(null);
  useLayoutEffect(() => {
    void stored.then(() => setWord('Ready'));
  }, []);
  useLayoutEffect(() => {
    if (word !== null) performance.mark('floor');
  }, [word]);
  return <p role="status">{word}</p>;
}

render(<FloorWithStorage />, document.getElementById('app') as HTMLElement);
