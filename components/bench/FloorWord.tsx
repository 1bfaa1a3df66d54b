import { useLayoutEffect, useState } from 'preact/hooks';

/**
 * The benchmark floors' whole page (entrypoints/floor*.tsx): one word once `stored` answers, and
 * the 'floor' mark when it is rendered, as the popup marks its verdict. Bench builds only.
 */
export function FloorWord({ stored }: { stored: Promise<unknown> }) {
  const [word, setWord] = useState<string | null>(null);
  useLayoutEffect(() => {
    void stored.then(() => setWord('Ready'));
  }, [stored]);
  useLayoutEffect(() => {
    if (word !== null) performance.mark('floor');
  }, [word]);
  return <p role="status">{word}</p>;
}
