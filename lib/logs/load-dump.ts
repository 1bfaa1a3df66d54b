/**
 * Streams one day's raw log from the service into the compact record store and, optionally, a
 * file. Lines are parsed as they arrive and dropped; the text itself is never held as a whole.
 */
import { ApiError, isApiError } from '@/lib/api/errors';
import type { DnsFilterApi } from '@/lib/api/types';
import { t } from '@/lib/i18n';
import type { RecordStore } from './record-store';

export interface DumpProgress {
  bytes: number;
  lines: number;
  /** Lines kept for the view (all of them unless the store's limit was reached). */
  stored: number;
  unrecognised: number;
}

/** Where the raw text goes when the user saves it; `write` may wait (backpressure). */
export interface DumpSink {
  write(text: string): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

export interface DumpOutcome extends DumpProgress {
  /** True when the store filled up: the view holds the first `stored` lines only. */
  truncated: boolean;
  /** True when the stream was stopped early because the store was full and nothing was being saved. */
  stoppedAtLimit: boolean;
  elapsedMs: number;
  /** Time spent parsing and storing lines, apart from waiting for the network: parse throughput is bytes / parseMs. */
  parseMs: number;
}

export interface StreamDumpOptions {
  api: Pick<DnsFilterApi, 'getDump'>;
  date: string;
  store: RecordStore;
  signal?: AbortSignal;
  sink?: DumpSink;
  /**
   * A copy of the text kept in the page, so the loaded log can be saved later without a second
   * download (one per hour). Unlike `sink` it does not keep a download going once the view is
   * full: the copy is then dropped (aborted), as the view holds only part of the day.
   */
  keep?: DumpSink;
  onProgress?: (progress: DumpProgress) => void;
  /** At most one progress call per interval; parsing is the hot path, rendering is not. */
  progressIntervalMs?: number;
  now?: () => number;
}

const mark = (name: string, detail?: unknown) => {
  try {
    globalThis.performance?.mark(name, { detail });
  } catch {
    // Marks are for measurements only; a browser without them must still load the log.
  }
};

const cancelled = () => new ApiError('aborted', t('rawLog.downloadCancelled'));

export async function streamDump(options: StreamDumpOptions): Promise<DumpOutcome> {
  const { api, date, store, signal, sink, keep, onProgress } = options;
  const now = options.now ?? (() => globalThis.performance?.now() ?? Date.now());
  const interval = options.progressIntervalMs ?? 100;
  const startedAt = now();
  let lastReport = startedAt;
  let bytes = 0;
  let lines = 0;
  let stoppedAtLimit = false;
  let parseMs = 0;
  const progress = (): DumpProgress => ({
    bytes,
    lines,
    stored: store.size,
    unrecognised: store.counts.unrecognised,
  });

  mark('dump-start');
  try {
    const chunks = await api.getDump(date, { signal });
    for await (const chunk of chunks) {
      bytes = chunk.bytesReceived;
      lines += chunk.lines.length;
      if (store.fullReason === null) {
        const parseStart = now();
        for (const line of chunk.lines) {
          if (store.addLine(line) === 'full') break;
        }
        parseMs += now() - parseStart;
      }
      const text = chunk.lines.length > 0 ? `${chunk.lines.join('\n')}\n` : '';
      if (sink !== undefined && text) await sink.write(text);
      if (keep !== undefined && text) await keep.write(text);
      if (store.fullReason !== null && sink === undefined) {
        // Nothing more can be shown and nothing is being saved: stop downloading (leaving the
        // loop cancels the response body).
        stoppedAtLimit = true;
        break;
      }
      const t = now();
      if (onProgress !== undefined && t - lastReport >= interval) {
        lastReport = t;
        onProgress(progress());
      }
      if (signal?.aborted) throw cancelled();
    }
    await sink?.close();
    await (stoppedAtLimit ? keep?.abort() : keep?.close());
  } catch (error) {
    await sink?.abort().catch(() => undefined);
    await keep?.abort().catch(() => undefined);
    throw signal?.aborted && !isApiError(error) ? cancelled() : error;
  }
  const outcome: DumpOutcome = {
    ...progress(),
    truncated: store.fullReason !== null,
    stoppedAtLimit,
    elapsedMs: now() - startedAt,
    parseMs,
  };
  onProgress?.(progress());
  mark('dump-done', {
    bytes: outcome.bytes,
    lines: outcome.lines,
    elapsedMs: outcome.elapsedMs,
    parseMs: outcome.parseMs,
  });
  return outcome;
}
