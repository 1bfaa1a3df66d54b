/**
 * Finds this network's public IPv4 through IP lookup services (docs/service-api.md,
 * "Current IP"). Their answers are a trust boundary: only a well-formed public IPv4 is accepted.
 */
import * as z from 'zod/mini';
import { t } from '@/lib/i18n';
import { validateIpv4 } from '@/lib/validation';
import { nonPublicRange } from './public-ipv4';

export type LookupResult =
  | { ok: true; ip: string; url: string }
  /** `problems` has one line per URL tried, in order. */
  | {
      ok: false;
      reason: 'ipv6' | 'malformed' | 'not-public' | 'unreachable';
      message: string;
      problems: string[];
    };

export interface LookupOptions {
  /** Per URL; default `LOOKUP_TIMEOUT_MS`. */
  timeoutMs?: number;
}

/** A lookup service that has not answered by then is taken as unreachable; the next one is asked. */
const LOOKUP_TIMEOUT_MS = 8000;
/** A lookup answer is one short line; anything longer is not what we asked for. */
const MAX_ANSWER_CHARS = 512;
const jsonAnswerSchema = z.object({ ip: z.string() });

/**
 * The answer's text, read only until it is longer than MAX_ANSWER_CHARS: a lookup service that
 * sends megabytes is cut off there (the rest is cancelled, not downloaded) and its answer then
 * fails the length check of parseLookupAnswer.
 */
async function readAnswer(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length <= MAX_ANSWER_CHARS) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return text;
}

type Answer =
  | { ok: true; ip: string }
  | { ok: false; reason: 'ipv6' | 'malformed' | 'not-public'; problem: string };

const malformed = (problem: string): Answer => ({ ok: false, reason: 'malformed', problem });

/** Reads a plain-text (`203.0.113.7\n`) or JSON (`{"ip": "203.0.113.7"}`) answer. Pure. */
export function parseLookupAnswer(body: string): Answer {
  const text = body.trim();
  if (text === '') return malformed(t('ipLookup.empty'));
  if (text.length > MAX_ANSWER_CHARS) return malformed(t('ipLookup.notAddress'));
  let candidate = text;
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return malformed(t('ipLookup.notJson'));
    }
    const shaped = jsonAnswerSchema.safeParse(parsed);
    if (!shaped.success) return malformed(t('ipLookup.noIp'));
    candidate = shaped.data.ip.trim();
  }
  if (candidate.includes(':') && /^[0-9a-f:.]+$/i.test(candidate)) {
    return { ok: false, reason: 'ipv6', problem: t('ipLookup.ipv6', { ip: candidate }) };
  }
  const ipv4 = validateIpv4(candidate);
  if (!ipv4.ok) return malformed(t('ipLookup.notIpv4'));
  const reserved = nonPublicRange(ipv4.value);
  if (reserved) {
    return {
      ok: false,
      reason: 'not-public',
      problem: t('ipLookup.notPublic', { ip: ipv4.value, range: reserved.cidr }),
    };
  }
  return { ok: true, ip: ipv4.value };
}

/**
 * Tries each URL in order and returns the first IPv4 found. Never throws. The request carries
 * no cookies and is never served from cache (a cached answer would hide an address change).
 */
export async function lookupPublicIpv4(
  urls: readonly string[],
  fetchImpl: typeof fetch,
  options: LookupOptions = {},
): Promise<LookupResult> {
  const timeoutMs = options.timeoutMs ?? LOOKUP_TIMEOUT_MS;
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const url of urls) {
    let body: string;
    try {
      const response = await fetchImpl(url, {
        cache: 'no-store',
        credentials: 'omit',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        problems.push(t('ipLookup.http', { url, status: response.status }));
        continue;
      }
      body = await readAnswer(response);
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      problems.push(
        timedOut
          ? t('ipLookup.noAnswer', { url, seconds: Math.round(timeoutMs / 1000) })
          : t('ipLookup.unreachable', { url }),
      );
      continue;
    }
    const answer = parseLookupAnswer(body);
    if (answer.ok) return { ok: true, ip: answer.ip, url };
    seen.add(answer.reason);
    problems.push(t('ipLookup.problem', { url, problem: answer.problem }));
  }
  // The most telling failure of any URL names the whole lookup's.
  const reason = (['ipv6', 'not-public', 'malformed'] as const).find((r) => seen.has(r)) ?? 'unreachable';
  const message =
    problems.length === 0 ? t('ipLookup.noUrl') : t('ipLookup.notFound', { problems: problems.join('; ') });
  return { ok: false, reason, message, problems };
}
