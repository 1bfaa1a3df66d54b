/**
 * The floor extension's popup (scripts/bench/floor-extension/README.md): one `storage.local`
 * read, one word rendered with Preact, then `performance.mark('ready')`. The least a popup that
 * shows stored data can do; the product's popup is timed against it in the same browser run.
 */
import { render } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';

type StorageArea = { get(key: string): Promise<Record<string, unknown>> };
const api =
  (globalThis as unknown as { browser?: { storage: { local: StorageArea } } }).browser ??
  (globalThis as unknown as { chrome: { storage: { local: StorageArea } } }).chrome;

function Word({ stored }: { stored: Promise<Record<string, unknown>> }) {
  const [word, setWord] = useState<string | null>(null);
  useLayoutEffect(() => {
    void stored.then((items) => setWord(typeof items.word === 'string' ? items.word : 'Ready'));
  }, [stored]);
  useLayoutEffect(() => {
    if (word !== null) performance.mark('ready');
  }, [word]);
  return <p role="status">{word}</p>;
}

// Started before the first render, as the product's popup starts its reads.
const stored = api.storage.local.get('word');
render(<Word stored={stored} />, document.getElementById('app') as HTMLElement);
