/**
 * Direction isolation of text from elsewhere (the service's reasons, domains, labels, profile
 * names; what the user typed) inside this extension's sentences. Such text is shown inert, but a
 * right-to-left override (U+202E) or a run of Hebrew or Arabic in it would still reorder the rest
 * of the sentence around it. Wrapping it in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE makes
 * it one neutral unit for the text around it, in the DOM, in notifications and in tooltips alike.
 */

const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';
const ISOLATE_INITIATORS = new Set(['\u2066', '\u2067', '\u2068']);

/**
 * Characters that can move text outside their own run: right-to-left letters (Hebrew, Arabic,
 * Syriac, Thaana, N'Ko, Samaritan, Mandaic and their presentation forms, and the right-to-left
 * blocks beyond the BMP) and the explicit marks, embeddings, overrides and isolates. Text without
 * any of them is left as it is: in a left-to-right sentence it cannot reorder anything.
 */
const DIRECTIONAL =
  /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u061C\u200F\u202A-\u202E\u2066-\u2069\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/**
 * `text` isolated when it holds anything directional. Its own isolates are balanced first: a
 * stray U+2069 would otherwise close the wrapper early, and an unclosed U+2066 would swallow the
 * closing one. Embeddings and overrides need nothing: the closing isolate ends them.
 */
export function isolateText(text: string): string {
  if (!DIRECTIONAL.test(text)) return text;
  let open = 0;
  let balanced = '';
  for (const character of text) {
    if (ISOLATE_INITIATORS.has(character)) open += 1;
    else if (character === POP_DIRECTIONAL_ISOLATE) {
      if (open === 0) continue;
      open -= 1;
    }
    balanced += character;
  }
  return `${FIRST_STRONG_ISOLATE}${balanced}${POP_DIRECTIONAL_ISOLATE.repeat(open)}${POP_DIRECTIONAL_ISOLATE}`;
}

export interface TextSegment {
  text: string;
  /** True for an isolated value (without its FSI/PDI), to be shown in an isolating element. */
  isolated: boolean;
}

/**
 * `message` cut into its plain parts and the values `isolateText` wrapped (outermost only), so a
 * component can show each value in a `<bdi>` as well. An unbalanced message stays one plain part.
 */
export function isolatedSegments(message: string): TextSegment[] {
  if (!message.includes(FIRST_STRONG_ISOLATE))
    return message === '' ? [] : [{ text: message, isolated: false }];
  const segments: TextSegment[] = [];
  let depth = 0;
  let current = '';
  const flush = (isolated: boolean) => {
    if (current !== '') segments.push({ text: current, isolated });
    current = '';
  };
  for (const character of message) {
    if (depth === 0 && character === FIRST_STRONG_ISOLATE) {
      flush(false);
      depth = 1;
      continue;
    }
    if (depth > 0) {
      if (ISOLATE_INITIATORS.has(character)) depth += 1;
      else if (character === POP_DIRECTIONAL_ISOLATE) depth -= 1;
      if (depth === 0) {
        flush(true);
        continue;
      }
    }
    current += character;
  }
  if (depth > 0) return [{ text: message, isolated: false }];
  flush(false);
  return segments;
}
