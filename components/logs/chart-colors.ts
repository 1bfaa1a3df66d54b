import { useEffect, useState } from 'preact/hooks';

/**
 * The colour a CSS colour (a design token such as `var(--color-allowed)`) has on this page now:
 * tokens hold `light-dark()`, which a canvas cannot paint, so an element resolves them.
 */
export function resolvedColor(near: Element, css: string): string {
  const probe = document.createElement('span');
  probe.style.color = css;
  probe.hidden = true;
  near.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

/** Changes whenever the page switches between light and dark (the Theme setting or the system). */
export function useColorScheme(): number {
  const [scheme, setScheme] = useState(0);
  useEffect(() => {
    const changed = () => setScheme((value) => value + 1);
    const observer = new MutationObserver(changed);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    media?.addEventListener('change', changed);
    return () => {
      observer.disconnect();
      media?.removeEventListener('change', changed);
    };
  }, []);
  return scheme;
}
