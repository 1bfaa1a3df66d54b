// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '@/lib/api';
import type { ApiClientConfig } from '@/lib/api/types';
import { chunkedBody, drain, fakeFetch, json, type Responder, rejectionOf, text } from './fake-fetch';

const LINE_1 = '2024-05-01 10:00:01 1 pass-through: allowed: 192.0.2.10: 1: example.com. (9.9.9.9)';
const LINE_2 = '2024-05-01 10:00:02 1 pass-through: blocked: 192.0.2.11: 1: ads.example.net. (9.9.9.9)';
const LINE_3 = '2024-05-01 10:00:03 1 pass-through: allowed: 192.0.2.12: 1: café.example. (9.9.9.9)';

function client(respond: Responder, extra: Partial<ApiClientConfig> = {}) {
  const fake = fakeFetch(respond);
  const api = createApiClient({
    baseUrl: 'https://dns.example',
    form: 'A',
    key: 'KEY123',
    fetch: fake.fetch,
    ...extra,
  });
  return { api, ...fake };
}

const textStream = (stream: ReadableStream<Uint8Array>, contentType = 'text/plain') =>
  new Response(stream, { headers: { 'content-type': contentType } });

describe('getDump streams the raw log as lines', () => {
  it('joins lines split across chunks, tolerates CRLF and emits the last line without a newline', async () => {
    const whole = `${LINE_1}\r\n${LINE_2}\n${LINE_3}`;
    const cuts = [10, 90, 91, 150];
    const chunks = [0, ...cuts].map((start, i) => whole.slice(start, cuts[i] ?? whole.length));
    const { stream } = chunkedBody(chunks);
    const { api, requests } = client(() => textStream(stream));
    const { lines, progress } = await drain(await api.getDump('2024-05-01'));
    expect(lines).toEqual([LINE_1, LINE_2, LINE_3]);
    expect(requests[0]?.action).toBe('logs/getdump');
    expect(requests[0]?.params).toEqual({ date: '2024-05-01' });
    expect(progress.at(-1)).toBe(new TextEncoder().encode(whole).byteLength);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('decodes a multi-byte character cut between two chunks', async () => {
    const bytes = new TextEncoder().encode(`${LINE_3}\n`);
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
    const { stream } = chunkedBody([bytes.slice(0, cut), bytes.slice(cut)]);
    const { api } = client(() => textStream(stream));
    expect((await drain(await api.getDump('2024-05-01'))).lines).toEqual([LINE_3]);
  });

  it('splits a CR and its LF arriving in different chunks', async () => {
    const { stream } = chunkedBody([`${LINE_1}\r`, `\n${LINE_2}\r\n`]);
    const { api } = client(() => textStream(stream));
    expect((await drain(await api.getDump('2024-05-01'))).lines).toEqual([LINE_1, LINE_2]);
  });

  it('gives nothing for an empty day', async () => {
    const { api } = client(() => text(''));
    expect((await drain(await api.getDump('2024-05-01'))).lines).toEqual([]);
  });

  it('hands over the first lines before the body has ended', async () => {
    const { stream, state } = chunkedBody([`${LINE_1}\n`, `${LINE_2}\n`], 0, 1);
    const { api } = client(() => textStream(stream), { timeoutMs: 200 });
    const iterator = (await api.getDump('2024-05-01'))[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.lines).toEqual([LINE_1]);
    expect(state.pulled).toBe(1);
    await iterator.return?.();
  });

  it('closes the download when the consumer stops early', async () => {
    const { stream, state } = chunkedBody(Array.from({ length: 50 }, () => `${LINE_1}\n`));
    const { api } = client(() => textStream(stream));
    for await (const chunk of await api.getDump('2024-05-01')) {
      if (chunk.lines.length > 0) break;
    }
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(50);
  });

  it('never buffers the body: a large log flows through with only one chunk read ahead', async () => {
    const chunk = `${LINE_1}\n`.repeat(1000);
    const { stream, state } = chunkedBody(Array.from({ length: 300 }, () => chunk));
    const { api } = client(() => textStream(stream));
    let count = 0;
    let maxAhead = 0;
    let seen = 0;
    for await (const piece of await api.getDump('2024-05-01')) {
      seen += 1;
      maxAhead = Math.max(maxAhead, state.pulled - seen);
      count += piece.lines.length;
    }
    expect(count).toBe(300_000);
    expect(maxAhead).toBeLessThanOrEqual(2);
  });
});

describe('getDump time limit', () => {
  it('a download slower overall than timeoutMs still completes while chunks keep coming', async () => {
    const { stream } = chunkedBody(
      Array.from({ length: 6 }, () => `${LINE_1}\n`),
      25,
    );
    const { api } = client(() => textStream(stream), { timeoutMs: 60 });
    const started = Date.now();
    const { lines } = await drain(await api.getDump('2024-05-01'));
    expect(Date.now() - started).toBeGreaterThan(60);
    expect(lines).toHaveLength(6);
  });

  it('a download that stalls between chunks fails with a timeout', async () => {
    const { stream, state } = chunkedBody([`${LINE_1}\n`, `${LINE_2}\n`], 0, 1);
    const { api } = client(() => textStream(stream), { timeoutMs: 40 });
    const dump = await api.getDump('2024-05-01');
    const error = await rejectionOf(drain(dump));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('timeout');
    expect((error as ApiError).message).toMatch(/^Could not download the raw log of 2024-05-01: /);
    expect(state.cancelled).toBe(true);
  });

  it('no headers in time is a timeout', async () => {
    const { api } = client(() => new Promise<Response>(() => {}), { timeoutMs: 30 });
    expect(((await rejectionOf(api.getDump('2024-05-01'))) as ApiError).kind).toBe('timeout');
  });

  it("the caller's signal cancels a download in progress", async () => {
    const controller = new AbortController();
    const { stream, state } = chunkedBody(
      Array.from({ length: 100 }, () => `${LINE_1}\n`),
      5,
    );
    const { api } = client(() => textStream(stream));
    const dump = await api.getDump('2024-05-01', { signal: controller.signal });
    let received = 0;
    const error = await rejectionOf(
      (async () => {
        for await (const chunk of dump) {
          received += chunk.lines.length;
          if (received === 3) controller.abort();
        }
      })(),
    );
    expect((error as ApiError).kind).toBe('aborted');
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(10);
  });
});

describe('getDump failures', () => {
  it.each([
    ['JSON content type', () => json({ status: 'failed', reason: 'No raw log for this day' }), 'service'],
    [
      'text content type, body starting with {',
      () => text('  {"status":"error","message":"No raw log for this day"}'),
      'service',
    ],
    [
      'no content type',
      () => new Response('{"status":"failed","reason":"No raw log for this day"}'),
      'service',
    ],
    ['bad key as JSON', () => json({ status: 'error', message: 'Invalid API key' }, 403), 'bad-key'],
  ])('a JSON failure body (%s) rejects before any line', async (_, respond, kind) => {
    const { api } = client(respond);
    const error = (await rejectionOf(api.getDump('2024-05-01'))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(/^Could not download the raw log of 2024-05-01: /);
  });

  it('reads a failure body split over several chunks', async () => {
    const { stream } = chunkedBody(['{"status":"fa', 'iled","reason":"Day dele', 'ted"}']);
    const { api } = client(() => textStream(stream));
    const error = (await rejectionOf(api.getDump('2024-05-01'))) as ApiError;
    expect(error.kind).toBe('service');
    expect(error.details.reason).toBe('Day deleted');
  });

  it('caps a JSON body in place of the log', async () => {
    const { stream, state } = chunkedBody([
      '{"status":"failed","reason":"',
      ...Array.from({ length: 50 }, () => 'x'.repeat(1000)),
    ]);
    const { api } = client(() => textStream(stream), { maxJsonBytes: 5000 });
    expect(((await rejectionOf(api.getDump('2024-05-01'))) as ApiError).kind).toBe('too-large');
    expect(state.cancelled).toBe(true);
  });

  it.each([
    ['an HTML page', () => text('<html><body>Not found</body></html>', 404, 'text/html'), /HTTP 404/],
    ['an HTML page sent as text', () => text('<!doctype html><p>maintenance</p>', 200), /HTTP 200/],
    ['a plain-text error page', () => text('Not Found', 404), /HTTP 404/],
    ['malformed JSON', () => text('{"status": nope', 200, 'application/json'), /not valid JSON/],
    ['JSON that is not a failure', () => json({ status: 'success', lines: [] }), /JSON instead of the log/],
  ])('%s is unexpected', async (_, respond, message) => {
    const { api } = client(respond);
    const error = (await rejectionOf(api.getDump('2024-05-01'))) as ApiError;
    expect(error.kind).toBe('unexpected');
    expect(error.message).toMatch(message);
  });

  it('a connection dropped mid-download is a network error', async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent > 2) controller.error(new TypeError('terminated'));
        else controller.enqueue(new TextEncoder().encode(`${LINE_1}\n`));
      },
    });
    const { api } = client(() => textStream(stream));
    const error = (await rejectionOf(drain(await api.getDump('2024-05-01')))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('network');
  });
});

describe('getDump and lines without line breaks', () => {
  it('a long line arriving in many chunks is one line', async () => {
    const piece = 'a'.repeat(1000);
    const { stream } = chunkedBody([...Array.from({ length: 300 }, () => piece), `\n${LINE_1}\n`]);
    const { api } = client(() => textStream(stream));
    const { lines } = await drain(await api.getDump('2024-05-01'));
    expect(lines).toEqual([piece.repeat(300), LINE_1]);
  });

  it('an answer with a line longer than 1 MB stops with a message: it is not a raw log', async () => {
    const piece = 'a'.repeat(64 * 1024);
    const { stream, state } = chunkedBody([`${LINE_1}\n`, ...Array.from({ length: 40 }, () => piece)]);
    const { api } = client(() => textStream(stream));
    const error = await rejectionOf(drain(await api.getDump('2024-05-01')));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('unexpected');
    expect((error as ApiError).message).toMatch(/a line longer than 1 MB, which is not a raw log/);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(40);
  });
});

describe('getDump and blanks before the first line', () => {
  const BLANK_CHUNKS = 320;
  const CHUNK = 64 * 1024;

  it('an answer starting with over 1 MB of blanks stops at the line limit, without reading the rest', async () => {
    const { stream, state } = chunkedBody(Array.from({ length: BLANK_CHUNKS }, () => ' '.repeat(CHUNK)));
    const { api } = client(() => textStream(stream));
    const error = await rejectionOf(api.getDump('2024-05-01').then(drain));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toMatch(/a line longer than 1 MB, which is not a raw log/);
    expect(state.cancelled).toBe(true);
    // 1 MB of blanks is 16 chunks: it stops at the first chunk past the limit.
    expect(state.pulled).toBe(17);
  });

  it('blank lines are dropped as they come, before the log too; the first line keeps its own blanks', async () => {
    const chunks = [
      ...Array.from({ length: 40 }, () => ' \r\n'.repeat(CHUNK / 4)),
      '\n   ',
      `${LINE_1}\n \t \r\n${LINE_2}`,
    ];
    const { stream } = chunkedBody(chunks);
    const { api } = client(() => textStream(stream));
    const { lines, progress } = await drain(await api.getDump('2024-05-01'));
    expect(lines).toEqual([`   ${LINE_1}`, LINE_2]);
    const bytes = chunks.reduce((sum, chunk) => sum + new TextEncoder().encode(chunk).byteLength, 0);
    expect(progress.at(-1)).toBe(bytes);
  });
});
