import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

/**
 * Part of the page shown one view at a time. Rendered the first time it is shown and kept
 * (hidden) afterwards, so what the user typed in a section is still there on coming back and a
 * section already loaded is not loaded again.
 */
export function Pane({ shown, children }: { shown: boolean; children: ComponentChildren }) {
  const visited = useRef(false);
  if (shown) visited.current = true;
  if (!visited.current) return null;
  return <div hidden={!shown}>{children}</div>;
}
