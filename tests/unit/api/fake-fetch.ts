/** A stand-in for `fetch` that records each request and answers with what the test decides. */
import { vi } from 'vitest';

export interface RecordedRequest {
  url: URL;
  path: string;
  action: string | null;
  /** Query parameters other than `apikey` and `action`. */
  params: Record<string, string>;
  signal: AbortSignal | undefined;
}

export type Responder = (request: RecordedRequest) => Response | Promise<Response>;

export function fakeFetch(respond: Responder = () => json({ status: 'success' })) {
  const requests: RecordedRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const params = Object.fromEntries(url.searchParams);
    delete params.apikey;
    delete params.action;
    const request: RecordedRequest = {
      url,
      path: url.pathname,
      action: url.searchParams.get('action'),
      params,
      signal: init?.signal ?? undefined,
    };
    requests.push(request);
    return respond(request);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests, mock: fetch };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function text(body: string, status = 200, contentType = 'text/plain; charset=utf-8'): Response {
  return new Response(body, { status, headers: { 'content-type': contentType } });
}

/**
 * A body delivered in the given chunks, one per pull, optionally `delayMs` apart. `pulled` and
 * `cancelled` tell the test how much the client read and whether it stopped the download.
 */
export function chunkedBody(
  chunks: (string | Uint8Array)[],
  delayMs = 0,
  stallAfter = Number.POSITIVE_INFINITY,
) {
  const encoder = new TextEncoder();
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (state.pulled >= stallAfter) {
          // Never answers again: a server that stops sending without closing.
          await new Promise(() => {});
        }
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        const chunk = chunks[state.pulled];
        state.pulled += 1;
        if (chunk === undefined) controller.close();
        else controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

/** Collects every line of a dump and the progress reported on the way. */
export async function drain(dump: AsyncIterable<{ lines: string[]; bytesReceived: number }>) {
  const lines: string[] = [];
  const progress: number[] = [];
  for await (const chunk of dump) {
    lines.push(...chunk.lines);
    progress.push(chunk.bytesReceived);
  }
  return { lines, progress };
}

/** The rejection of `promise`, which must reject. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a resolution');
}
