import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainName } from '@/components/DomainName';

afterEach(cleanup);

/** The pieces a line may not break inside, in order: what lies between two `<wbr>`s. */
function unbreakablePieces(domain: string): string[] {
  const { container } = render(<DomainName domain={domain} />);
  const bdi = container.querySelector('bdi.domain');
  if (!bdi) throw new Error('no domain element');
  expect(bdi.textContent).toBe(domain);
  const pieces: string[] = [''];
  for (const node of bdi.childNodes) {
    if (node.nodeName === 'WBR') pieces.push('');
    else pieces[pieces.length - 1] += node.textContent ?? '';
  }
  return pieces;
}

describe('DomainName: a domain wraps only after its dots', () => {
  it('offers a break after each dot and nowhere else', () => {
    expect(unbreakablePieces('news.blocked-demo.example')).toEqual(['news.', 'blocked-demo.', 'example']);
    expect(unbreakablePieces('example')).toEqual(['example']);
  });

  it('keeps every label a browser could break inside (a hyphen, ideographs) in a span that does not wrap', () => {
    const { container } = render(<DomainName domain="a1.xn--bcher-kva.例え.example" />);
    const kept = [...container.querySelectorAll('bdi.domain > span')].map((span) => span.textContent);
    expect(kept).toEqual(['xn--bcher-kva.', '例え.']);
    // Letters and digits alone have no break opportunity: they stay plain text.
    const plain = [...(container.querySelector('bdi.domain')?.childNodes ?? [])]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent);
    expect(plain).toEqual(['a1.', 'example']);
  });
});
