/**
 * Cuts streamed text into lines in time linear in its length. The part of a line that has no
 * line break yet is kept as a list of pieces and joined once, when its break arrives: joining it
 * with every new chunk and searching it again would make a day without line breaks quadratic
 * (16 MB took over a second, 200 MB minutes).
 */

/** A raw log line is a few hundred characters; one far longer means the answer is not a log. */
export const MAX_LINE_CHARS = 1024 * 1024;

/** Where the next line break is in `text` from `from` on, or -1: `indexOf`, replaceable in tests. */
export type FindBreak = (text: string, from: number) => number;

const indexOfBreak: FindBreak = (text, from) => text.indexOf('\n', from);

export function createLineSplitter({
  maxLineChars = MAX_LINE_CHARS,
  findBreak = indexOfBreak,
}: {
  maxLineChars?: number;
  findBreak?: FindBreak;
} = {}) {
  let pending: string[] = [];
  let pendingChars = 0;
  const takePending = (tail: string): string => {
    const line = pending.length === 0 ? tail : pending.join('') + tail;
    pending = [];
    pendingChars = 0;
    return line;
  };
  return {
    /**
     * The lines `text` completes, without their line breaks. Returns null when the line in
     * progress has grown beyond the limit (nothing is kept of it; the caller stops reading).
     */
    push(text: string): string[] | null {
      const lines: string[] = [];
      let start = 0;
      for (let end = findBreak(text, start); end >= 0; end = findBreak(text, start)) {
        lines.push(takePending(text.slice(start, end)));
        start = end + 1;
      }
      const rest = start === 0 ? text : text.slice(start);
      if (rest !== '') {
        pending.push(rest);
        pendingChars += rest.length;
      }
      if (pendingChars > maxLineChars || lines.some((line) => line.length > maxLineChars)) {
        pending = [];
        pendingChars = 0;
        return null;
      }
      return lines;
    },
    /** The last line, which had no line break; '' when there is none. */
    end: () => takePending(''),
  };
}
