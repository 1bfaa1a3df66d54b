/**
 * Turns a pasted block of text into the domains to add, one call each. Lines that cannot be
 * domains are reported with the reason and kept, so the user can fix them instead of retyping.
 */
import { normaliseDomainInput } from '@/lib/filtering/domain';

export interface RefusedLine {
  /** The line as the user wrote it (trimmed). */
  line: string;
  message: string;
}

export interface ParsedDomainLines {
  /** Normalised, in the order given, each once. */
  domains: string[];
  refused: RefusedLine[];
  /** Lines that normalised to a domain already listed above them. */
  duplicates: number;
}

// Hosts-file lines (`0.0.0.0 ads.example.com`) are a common way block lists are shared.
const HOSTS_LINE = /^(?:0\.0\.0\.0|127\.0\.0\.1|::1?)\s+(\S+)$/;

/** Splits on line breaks, commas and semicolons; `#` starts a comment; blank parts are skipped. */
export function splitDomainLines(text: string): string[] {
  const parts: string[] = [];
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const withoutComment = rawLine.replace(/(^|\s)#.*$/, '').trim();
    if (withoutComment === '') continue;
    for (const piece of withoutComment.split(/[,;]/)) {
      const trimmed = piece.trim();
      if (trimmed === '') continue;
      const hosts = HOSTS_LINE.exec(trimmed);
      parts.push(hosts ? hosts[1]! : trimmed);
    }
  }
  return parts;
}

export function parseDomainLines(text: string): ParsedDomainLines {
  const domains: string[] = [];
  const seen = new Set<string>();
  const refused: RefusedLine[] = [];
  let duplicates = 0;
  for (const line of splitDomainLines(text)) {
    const result = normaliseDomainInput(line);
    if (!result.ok) {
      refused.push({ line, message: result.message });
    } else if (seen.has(result.value)) {
      duplicates++;
    } else {
      seen.add(result.value);
      domains.push(result.value);
    }
  }
  return { domains, refused, duplicates };
}
