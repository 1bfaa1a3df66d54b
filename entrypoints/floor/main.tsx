/**
 * The benchmark's floor (scripts/bench): the least an extension page of this project can do
 * before showing something that depends on stored data. One `storage.local` read, one word, one
 * mark. The popup's warm time to verdict is judged against it. Built only into the bench output
 * (wxt.config.ts drops it otherwise), never shipped.
 */
import { render } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';

// Started before the first render, as the popup starts its reads.
const stored = browser.storage.local.get('connection');

function Floor() {
  const [word, setWord] = useState<string | null>(null);
  useLayoutEffect(() => {
    void stored.then(() => setWord('Ready'));
  }, []);
  useLayoutEffect(() => {
    if (word !== null) performance.mark('floor');
  }, [word]);
  return <p role="status">{word}</p>;
}

render(<Floor />, document.getElementById('app') as HTMLElement);
