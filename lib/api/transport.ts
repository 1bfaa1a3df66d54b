/**
 * One HTTP call to the service: URL with the key, time limit, cancellation, capped body, JSON
 * `status` check and the mapping of every failure to an `ApiError`. The adapters add the
 * action's parameters and the schema of its answer.
 */
import type * as z from 'zod/mini';
import { formatNumber, t } from '@/lib/i18n';
import { ApiError, type ApiErrorDetails, type ApiErrorKind } from './errors';
import { FORMS } from './forms';
import { createLineSplitter, MAX_LINE_CHARS } from './line-splitter';
import { failureBodySchema, failureReason } from './schemas';
import type { ApiForm, DumpChunk } from './types';

export const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Largest JSON answer read. The biggest legitimate one is a day of statistics with per-hour
 * domain maps, a few MB for a busy network; past 10 MB the popup or worker would stall parsing
 * it, and the answer is more likely a misbehaving server. The raw log is streamed, not capped.
 */
export const DEFAULT_MAX_JSON_BYTES = 10 * 1024 * 1024;

/**
 * Longest failure text kept from the service, in characters. Cut where the ApiError is built, so
 * the outbox, the settled changes, notifications and every status region get the same short
 * text: a real reason is one sentence; a 5 MB one would fill storage and bury the page.
 */
export const MAX_REASON_CHARS = 300;

/**
 * Longest wait a Retry-After header can ask for. The outbox's own backoff never waits longer
 * than 30 minutes; a server asking for days is not trusted to hold back a user's change.
 */
export const MAX_RETRY_AFTER_MS = 30 * 60_000;

export interface TransportConfig {
  /** Already validated origin (validateBaseUrl). */
  origin: string;
  form: ApiForm;
  key: string;
  fetch: typeof fetch;
  timeoutMs: number;
  maxJsonBytes: number;
}

export interface ApiCall {
  action: string;
  /** Form-specific parameter names; undefined values are left out. */
  params?: Record<string, string | undefined>;
  /** What the user asked for, completing "Could not …" ("add example.com to the whitelist"). */
  attempted: string;
  signal?: AbortSignal | undefined;
}

export interface Transport {
  readonly form: ApiForm;
  /** JSON answer parsed with `schema`; a failure body or anything else rejects with ApiError. */
  call<S extends z.ZodMiniType>(request: ApiCall, schema: S): Promise<z.output<S>>;
  /** Plain-text answer as lines, read incrementally; a JSON failure body rejects before the first chunk. */
  stream(request: ApiCall): Promise<AsyncIterable<DumpChunk>>;
  /** An ApiError with the key scrubbed, for refusals decided by the adapter itself. */
  error(kind: ApiErrorKind, attempted: string, detail: string, extra?: ApiErrorDetails): ApiError;
}

const BAD_KEY_SUBJECT = /\bapi[\s_-]?key\b|\bapikey\b/i;
const BAD_KEY_VERDICT =
  /invalid|unknown|missing|wrong|incorrect|\bbad\b|not valid|not found|expired|revoked|unauthori[sz]ed/i;

/** True when a failure text says the key was refused ("Invalid API key", "apikey missing"). */
export function isBadKeyReason(reason: string): boolean {
  return BAD_KEY_SUBJECT.test(reason) && BAD_KEY_VERDICT.test(reason);
}

/**
 * `text` cut to at most `max` characters, marked "… (shortened)" (a bare trailing ellipsis would
 * read as an action still in progress); never splits a surrogate pair.
 */
export function capText(text: string, max = MAX_REASON_CHARS): string {
  if (text.length <= max) return text;
  const room = max - t('api.shortened', { text: '' }).length;
  let cut = text.slice(0, room).trimEnd();
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return t('api.shortened', { text: cut });
}

/**
 * Retry-After (RFC 9110): delay-seconds or an HTTP date, in milliseconds from `now`, capped at
 * MAX_RETRY_AFTER_MS. Undefined when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  const value = header?.trim() ?? '';
  if (value === '') return undefined;
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  // An HTTP date starts with the day's name ("Wed, 21 Oct 2015 07:28:00 GMT"); Date.parse alone
  // would also read "-5" as a year.
  else if (/^[a-z]{3},/i.test(value)) ms = Date.parse(value) - now;
  else return undefined;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

type StopReason = 'timeout' | 'aborted';

/**
 * One call in progress: what it attempts, its answer's HTTP status once there is one, its time
 * limit and its cancellation. A JSON call gets one deadline for the whole call (`whole`); a
 * download arms the timer around each wait for the server (headers, then each chunk) so a long
 * download that keeps flowing is never cut.
 */
class CallGuard {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  /** Why the call was stopped; null while it runs. */
  stopReason: StopReason | null = null;
  readonly attempted: string;
  httpStatus = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly callerSignal: AbortSignal | undefined;
  private readonly onCallerAbort = () => this.stop('aborted');

  constructor(
    request: ApiCall,
    private readonly timeoutMs: number,
    private readonly scope: 'whole' | 'per-wait',
  ) {
    this.attempted = request.attempted;
    this.callerSignal = request.signal;
    if (this.callerSignal?.aborted) this.stop('aborted');
    else this.callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /**
   * Waits for the server, under the time limit; for `whole` the first wait starts the one deadline.
   * Rejects as soon as the call is stopped, so a fetch or a stream that ignores its signal cannot
   * keep the caller waiting past the time limit.
   */
  async wait<T>(work: Promise<T>): Promise<T> {
    if (this.scope === 'per-wait' || this.timer === undefined) {
      this.clearTimer();
      this.timer = setTimeout(() => this.stop('timeout'), this.timeoutMs);
    }
    const signal = this.signal;
    const value = await new Promise<T>((resolve, reject) => {
      const onStop = () => {
        work.catch(noop);
        reject(signal.reason);
      };
      if (signal.aborted) return onStop();
      signal.addEventListener('abort', onStop, { once: true });
      work.then(resolve, reject).then(() => signal.removeEventListener('abort', onStop));
    });
    // The server answered this wait; the time the caller spends on the data does not count.
    if (this.scope === 'per-wait') this.clearTimer();
    return value;
  }

  dispose(): void {
    this.clearTimer();
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private stop(reason: StopReason): void {
    if (this.stopReason !== null) return;
    this.stopReason = reason;
    this.clearTimer();
    this.controller.abort();
  }
}

const noop = () => {};

function formatDuration(ms: number): string {
  return ms >= 1000
    ? t('api.seconds', { value: formatNumber(Number((ms / 1000).toFixed(1))) })
    : t('api.milliseconds', { value: formatNumber(ms) });
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? t('api.megabytes', { value: formatNumber(Number((bytes / 1024 / 1024).toFixed(1))) })
    : t('api.kilobytes', { value: formatNumber(Math.ceil(bytes / 1024)) });
}

/**
 * Every way an answer may spell `key` when it echoes a request address or form: each character as
 * is or percent-encoded (hex digits in either case, also encoded twice, `%252F`), a space also as
 * `+` and a `+` as a space; in any mixture, as the service's encoder, a proxy's or a hand-written
 * message may write it. Null for no key.
 */
function keySpellings(key: string): RegExp | null {
  if (key === '') return null;
  const encoder = new TextEncoder();
  const hexDigit = (digit: string) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit);
  const percentOf = (byte: number) =>
    `%(?:25)?${[...byte.toString(16).padStart(2, '0')].map(hexDigit).join('')}`;
  const characters = Array.from(key, (char) => {
    // Encoded first: a '%' of the key must not stop the match short of the '%25' that spells it.
    const ways = [
      [...encoder.encode(char)].map(percentOf).join(''),
      char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'),
    ];
    // A form's space is '+', and a form decoder reads a '+' sent as is as a space.
    if (char === ' ' || char === '+') ways.push(char === ' ' ? '\\+' : ' ');
    return `(?:${ways.join('|')})`;
  });
  return new RegExp(characters.join(''), 'g');
}

export function createTransport(config: TransportConfig): Transport {
  const endpoint = `${config.origin}${FORMS[config.form].path}`;
  const spelledKey = keySpellings(config.key);
  const scrub = (text: string): string => (spelledKey ? text.replace(spelledKey, '[key]') : text);

  function error(
    kind: ApiErrorKind,
    attempted: string,
    detail: string,
    extra: ApiErrorDetails = {},
  ): ApiError {
    const details: ApiErrorDetails = { ...extra, attempted: scrub(attempted) };
    // Scrubbed before the cut: a cut through the key would leave a part of it the scrub misses.
    if (extra.reason !== undefined) details.reason = capText(scrub(extra.reason));
    return new ApiError(
      kind,
      scrub(t('api.couldNot', { attempted, detail: capText(scrub(detail)) })),
      details,
    );
  }

  const unexpected = ({ attempted, httpStatus }: CallGuard, what: string) =>
    error('unexpected', attempted, t('api.unexpected', { status: httpStatus, what }), { httpStatus });

  const lineTooLong = (guard: CallGuard) =>
    unexpected(guard, t('api.lineTooLong', { size: formatBytes(MAX_LINE_CHARS) }));

  const tooLarge = ({ attempted, httpStatus }: CallGuard) =>
    error('too-large', attempted, t('api.tooLarge', { size: formatBytes(config.maxJsonBytes) }), {
      httpStatus,
    });

  /**
   * Decides from the HTTP status alone, before the body is looked at. The whole rule (the lead
   * copies it to docs/service-api.md):
   *
   * | HTTP status              | body                          | kind                      | outbox, registration |
   * | ------------------------ | ----------------------------- | ------------------------- | -------------------- |
   * | 3xx, or opaque redirect  | anything (never read)         | 'unexpected' ("redirect") | retried              |
   * | 5xx, 429                 | anything (failure text shown) | 'server' (+ Retry-After)  | retried              |
   * | other (1xx, 2xx, 4xx)    | failure, key named as refused | 'bad-key'                 | retried (key fixed)  |
   * | other                    | failure body                  | 'service'                 | final                |
   * | other                    | success JSON of the shape     | (answer)                  | done                 |
   * | other                    | HTML, not JSON, wrong shape   | 'unexpected'              | retried              |
   * | other                    | larger than maxJsonBytes      | 'too-large'               | final                |
   * | no answer                | -                             | 'network' / 'timeout'     | retried              |
   *
   * Redirects are refused (`redirect: 'manual'`): following one would carry the key in its query
   * string to wherever the redirect points, `http://` or another host. Browsers hide the target
   * and the code of a refused redirect (an opaque-redirect answer with status 0); other fetch
   * implementations give the 3xx itself. A 5xx or 429 is the service busy or failing for now,
   * whatever its body says, so a queued change is never dropped for it; its failure text, when it
   * sends one, is still shown.
   */
  async function refuseByStatus(response: Response, guard: CallGuard): Promise<void> {
    const { attempted, httpStatus: status } = guard;
    if (response.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
      response.body?.cancel().catch(noop);
      throw status === 0
        ? error('unexpected', attempted, t('api.redirectHidden'))
        : unexpected(guard, t('api.redirect'));
    }
    if (status < 500 && status !== 429) return;
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    const reason = await failureTextOf(response, guard);
    const busy =
      retryAfterMs === undefined
        ? t('api.server', { status })
        : t('api.serverRetryAfter', { status, duration: formatDuration(retryAfterMs) });
    throw error('server', attempted, reason === null ? busy : `${busy} ${reason}`, {
      httpStatus: status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...(reason === null ? {} : { reason }),
    });
  }

  /** The failure text of a 5xx/429 body, if it is a failure body; null for anything else. */
  async function failureTextOf(response: Response, guard: CallGuard): Promise<string | null> {
    const contentType = response.headers.get('content-type')?.toLowerCase() ?? '';
    if (!contentType.includes('json')) {
      response.body?.cancel().catch(noop);
      return null;
    }
    try {
      const body: unknown = JSON.parse(await readCapped(response, guard));
      const failure = failureBodySchema.safeParse(body);
      return failure.success ? failureReason(failure.data) : null;
    } catch (thrown) {
      // Cancelled or out of time: that is the outcome. Anything else about the body: no text.
      if (guard.stopReason !== null) throw thrown;
      return null;
    }
  }

  function fromThrown(thrown: unknown, { attempted, stopReason }: CallGuard): ApiError {
    if (thrown instanceof ApiError) return thrown;
    if (stopReason === 'timeout') {
      return error('timeout', attempted, t('api.timeout', { duration: formatDuration(config.timeoutMs) }));
    }
    if (stopReason === 'aborted') return error('aborted', attempted, t('api.cancelled'));
    return error('network', attempted, t('api.unreachable'));
  }

  function buildUrl(request: ApiCall): string {
    const url = new URL(endpoint);
    url.searchParams.set('apikey', config.key);
    url.searchParams.set('action', request.action);
    for (const [name, value] of Object.entries(request.params ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    return url.toString();
  }

  async function send(request: ApiCall, guard: CallGuard, accept: string): Promise<Response> {
    if (guard.stopReason !== null) throw fromThrown(null, guard);
    // Promise.resolve().then: a fetch that throws synchronously becomes a rejection like any other.
    const pending = Promise.resolve().then(() =>
      config.fetch(buildUrl(request), {
        method: 'GET',
        headers: { Accept: accept },
        signal: guard.signal,
        // The key is the only credential; cookies of the provider's dashboard must not ride along.
        credentials: 'omit',
        cache: 'no-store',
        // A redirect is answered, not followed: it would carry the key elsewhere (refuseByStatus).
        redirect: 'manual',
      }),
    );
    // Once the caller has given up, a late response must not keep its connection open.
    pending.then((late) => {
      if (guard.signal.aborted) late.body?.cancel().catch(noop);
    }, noop);
    const response = await guard.wait(pending);
    guard.httpStatus = response.status;
    return response;
  }

  /**
   * The body as text, at most `maxJsonBytes` of it; `parts` are the chunks a peek has taken from
   * `reader` already.
   */
  async function readCapped(
    response: Response,
    guard: CallGuard,
    parts: Uint8Array[] = [],
    reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader(),
  ): Promise<string> {
    const cap = config.maxJsonBytes;
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    let total = parts.reduce((sum, part) => sum + part.byteLength, 0);
    let finished = reader === undefined;
    try {
      if (total === 0 && Number.isFinite(declared) && declared > cap) throw tooLarge(guard);
      while (!finished && reader !== undefined && total <= cap) {
        const { done, value } = await guard.wait(reader.read());
        if (done) finished = true;
        else {
          total += value.byteLength;
          parts.push(value);
        }
      }
    } finally {
      // Stop the download as soon as it is over the cap, instead of buffering the rest.
      if (!finished) reader?.cancel().catch(noop);
    }
    if (total > cap) throw tooLarge(guard);
    const decoder = new TextDecoder();
    return parts.map((part) => decoder.decode(part, { stream: true })).join('') + decoder.decode();
  }

  /** The JSON value of a body, or the 'unexpected' error describing what came instead. */
  function parseJson(text: string, guard: CallGuard): unknown {
    const start = text.trimStart();
    if (start === '') throw unexpected(guard, t('api.emptyAnswer'));
    if (start.startsWith('<')) throw unexpected(guard, t('api.webPage'));
    try {
      return JSON.parse(text);
    } catch {
      throw unexpected(guard, t('api.notJson'));
    }
  }

  /** A failure body becomes 'service' or 'bad-key' with the service's text verbatim. */
  function throwIfFailureBody(body: unknown, { attempted, httpStatus }: CallGuard): void {
    const failure = failureBodySchema.safeParse(body);
    if (!failure.success) return;
    const reason = failureReason(failure.data);
    if (reason === null) throw error('service', attempted, t('api.noReason'), { httpStatus });
    throw error(isBadKeyReason(reason) ? 'bad-key' : 'service', attempted, reason, { reason, httpStatus });
  }

  async function call<S extends z.ZodMiniType>(request: ApiCall, schema: S): Promise<z.output<S>> {
    const guard = new CallGuard(request, config.timeoutMs, 'whole');
    try {
      const response = await send(request, guard, 'application/json');
      await refuseByStatus(response, guard);
      const body = parseJson(await readCapped(response, guard), guard);
      throwIfFailureBody(body, guard);
      let parsed: { success: boolean; data?: unknown } | undefined;
      try {
        parsed = schema.safeParse(body);
      } catch {
        // A schema must never turn a hostile body into a raw exception: `parsed` stays undefined.
      }
      if (!parsed?.success) throw unexpected(guard, t('api.unknownShape'));
      return parsed.data as z.output<S>;
    } catch (thrown) {
      throw fromThrown(thrown, guard);
    } finally {
      guard.dispose();
    }
  }

  async function stream(request: ApiCall): Promise<AsyncIterable<DumpChunk>> {
    const guard = new CallGuard(request, config.timeoutMs, 'per-wait');
    let handedOver = false;
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    try {
      const response = await send(request, guard, 'text/plain, application/json');
      await refuseByStatus(response, guard);
      const contentType = response.headers.get('content-type')?.toLowerCase() ?? '';
      if (contentType.includes('json')) {
        readFailure(await readCapped(response, guard), guard);
      }
      if (contentType.includes('html')) {
        response.body?.cancel().catch(noop);
        throw unexpected(guard, t('api.webPageNotLog'));
      }
      reader = response.body?.getReader();
      // Peek until the first visible character: a JSON body here is a failure (a deleted day).
      const peek = await peekPastBlanks(reader, guard);
      const first = VISIBLE.exec(peek.text)?.[0];
      if (first === '{' && reader !== undefined) {
        readFailure(await readCapped(response, guard, peek.visibleChunk, reader), guard);
      }
      if (first === '<') throw unexpected(guard, t('api.webPageNotLog'));
      if (response.status >= 400) throw unexpected(guard, t('api.errorPageNotLog'));
      handedOver = true;
      return dumpLines(reader, peek, guard);
    } catch (thrown) {
      throw fromThrown(thrown, guard);
    } finally {
      if (!handedOver) {
        reader?.cancel().catch(noop);
        guard.dispose();
      }
    }
  }

  /**
   * Reads until the first visible character, in time linear in what it reads. The blanks before
   * it are not kept: blank lines carry no query (`dumpLines` drops them too), so only the blanks
   * after the last line break stay, as the start of the first line, and they count toward its
   * limit: blanks without a line break stop like any line longer than `MAX_LINE_CHARS`.
   */
  async function peekPastBlanks(
    reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
    guard: CallGuard,
  ): Promise<PeekedStart> {
    const decoder = new TextDecoder();
    let bytes = 0;
    let blankTail = '';
    while (reader !== undefined) {
      const { done, value } = await guard.wait(reader.read());
      if (done) break;
      bytes += value.byteLength;
      const text = decoder.decode(value, { stream: true });
      if (VISIBLE.test(text)) {
        return { text: `${blankTail}${text}`, bytes, decoder, visibleChunk: [value] };
      }
      const lastBreak = text.lastIndexOf('\n');
      blankTail = lastBreak >= 0 ? text.slice(lastBreak + 1) : blankTail + text;
      if (blankTail.length > MAX_LINE_CHARS) throw lineTooLong(guard);
    }
    return { text: blankTail, bytes, decoder, visibleChunk: [] };
  }

  /** A JSON answer where text was expected: always an error, never lines. */
  function readFailure(text: string, guard: CallGuard): never {
    throwIfFailureBody(parseJson(text, guard), guard);
    throw unexpected(guard, t('api.jsonNotLog'));
  }

  async function* dumpLines(
    reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
    start: PeekedStart,
    guard: CallGuard,
  ): AsyncGenerator<DumpChunk> {
    // The peek's decoder: a character cut between its last chunk and the next one is whole again.
    const { decoder } = start;
    const splitter = createLineSplitter();
    let bytesReceived = start.bytes;
    // Without a visible character the peek has read the whole answer.
    let finished = start.visibleChunk.length === 0;
    const take = (text: string, last = false): DumpChunk => {
      const pieces = splitter.push(text);
      if (pieces === null) throw lineTooLong(guard);
      // The line without a break yet waits in the splitter for the next chunk (or the end).
      if (last) pieces.push(splitter.end());
      // Blank lines (nothing but blanks) carry no query, so they are not passed on.
      return { lines: pieces.map(withoutCarriageReturn).filter(hasVisibleCharacter), bytesReceived };
    };
    try {
      if (start.bytes > 0) yield take(start.text);
      while (!finished && reader !== undefined) {
        const { done, value } = await guard.wait(reader.read());
        if (done) finished = true;
        else {
          bytesReceived += value.byteLength;
          yield take(decoder.decode(value, { stream: true }));
        }
      }
      const last = take(decoder.decode(), true);
      if (last.lines.length > 0) yield last;
    } catch (thrown) {
      throw fromThrown(thrown, guard);
    } finally {
      // Also reached when the consumer stops early (break / return): close the download.
      if (!finished) reader?.cancel().catch(noop);
      guard.dispose();
    }
  }

  return { form: config.form, call, stream, error };
}

/** Where the peek at a raw log's start stopped (`peekPastBlanks`). */
interface PeekedStart {
  /**
   * The text to start the lines with: the blanks after the last line break, and what followed
   * (the first visible character; none when the answer ended before one).
   */
  text: string;
  /** Bytes read so far, blanks included. */
  bytes: number;
  /** Decodes the rest of the answer (it may hold the first part of a character). */
  decoder: TextDecoder;
  /** The chunk the first visible character came in, as read (where a JSON body starts); none at the end. */
  visibleChunk: Uint8Array[];
}

const VISIBLE = /\S/;
const hasVisibleCharacter = (text: string) => VISIBLE.test(text);

// Servers that write CRLF leave a CR before each LF.
const withoutCarriageReturn = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);
