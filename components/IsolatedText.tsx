import { isolatedSegments } from '@/lib/i18n';

/**
 * A message whose inserted values (`t` wraps text values in direction isolates, lib/i18n/bidi.ts)
 * are shown in `<bdi>` elements: the page isolates them even where the text is copied or styled.
 */
export function IsolatedText({ text }: { text: string }) {
  return (
    <>
      {isolatedSegments(text).map((segment, index) =>
        // Segments never move or change between renders of one text: the index is their identity.
        segment.isolated ? <bdi key={index}>{segment.text}</bdi> : segment.text,
      )}
    </>
  );
}
