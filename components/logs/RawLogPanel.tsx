import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { isApiError } from '@/lib/api/errors';
import type { DnsFilterApi } from '@/lib/api/types';
import { createDumpGuard, type DumpAllowance, dumpAllowance, formatClock } from '@/lib/logs/dump-guard';
import { type DumpOutcome, type DumpProgress, type DumpSink, streamDump } from '@/lib/logs/load-dump';
import { createRecordStore, type RecordFilter, type RecordStore } from '@/lib/logs/record-store';
import { chooseDumpSink, dumpFileName } from '@/lib/logs/save-dump';
import { lastLogDumpItem } from '@/lib/settings/storage';
import { StatusMessage } from '../StatusMessage';
import { type ActionStatus, failureText } from '../useRemoteAction';
import { RawLogTable } from './RawLogTable';

const megabytes = (bytes: number) =>
  `${(bytes / 1_000_000).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
const count = (n: number) => n.toLocaleString('en');
const lines = (n: number) => `${count(n)} ${n === 1 ? 'line' : 'lines'}`;

function progressText(p: DumpProgress): string {
  const bad = p.unrecognised > 0 ? `, ${count(p.unrecognised)} not recognised` : '';
  return `${megabytes(p.bytes)} received, ${count(p.lines)} lines${bad}`;
}

/** The guard over the stored time; Web Locks make check-and-claim atomic across extension pages. */
function createStoredDumpGuard() {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return createDumpGuard({
    readLastAt: async () => (await lastLogDumpItem.getValue())?.at ?? null,
    writeLastAt: (at) => lastLogDumpItem.setValue(at === null ? null : { at }),
    exclusive: locks
      ? <T,>(task: () => Promise<T>) =>
          locks.request('dns-filter-logs-dump-guard', task) as unknown as Promise<T>
      : undefined,
  });
}

/** The hourly allowance as stored, kept current across tabs and re-enabled when the hour is over. */
function useDumpAllowance(): DumpAllowance | null {
  const [allowance, setAllowance] = useState<DumpAllowance | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = (lastAt: number | null) => {
      clearTimeout(timer);
      const next = dumpAllowance(lastAt, Date.now());
      setAllowance(next);
      if (!next.allowed)
        timer = setTimeout(() => show(lastAt), Math.min(next.nextAt - Date.now() + 250, 2 ** 31 - 1));
    };
    void lastLogDumpItem.getValue().then((value) => show(value?.at ?? null));
    const unwatch = lastLogDumpItem.watch((value) => show(value?.at ?? null));
    return () => {
      clearTimeout(timer);
      unwatch();
    };
  }, []);
  return allowance;
}

interface Loaded {
  date: string;
  store: RecordStore;
  /** Set once the download is over (complete, cancelled or failed). */
  outcome?: DumpOutcome;
}

/** A growable list of matching record numbers, extended as lines arrive. */
function useFilteredRows(loaded: Loaded | null, filter: RecordFilter, tick: number): Uint32Array {
  const state = useRef<{ key: unknown; buf: Uint32Array; length: number; scanned: number }>({
    key: null,
    buf: new Uint32Array(0),
    length: 0,
    scanned: 0,
  });
  // `tick` is a dependency on purpose: it says that new lines arrived in the (mutable) store.
  return useMemo(() => {
    const s = state.current;
    if (loaded === null) return new Uint32Array(0);
    const key = `${loaded.date}|${filter.kind}|${filter.domainContains}|${filter.clientIp}`;
    if (s.key !== key || loaded.store.size < s.scanned) {
      s.key = key;
      s.length = 0;
      s.scanned = 0;
    }
    const fresh = loaded.store.matching(filter, s.scanned);
    s.scanned = loaded.store.size;
    if (s.length + fresh.length > s.buf.length) {
      const grown = new Uint32Array(Math.max(1024, (s.length + fresh.length) * 1.5) | 0);
      grown.set(s.buf.subarray(0, s.length));
      s.buf = grown;
    }
    s.buf.set(fresh, s.length);
    s.length += fresh.length;
    return s.buf.subarray(0, s.length);
  }, [loaded, filter, tick]);
}

export interface RawLogPanelProps {
  api: DnsFilterApi;
  date: string;
  /** Raw lines of `date` were deleted (from this browser): a download can only fail. */
  deleted: boolean;
  /** Days deleted since the page opened: a loaded view of one of them is dropped. */
  deletedDays: readonly string[];
}

/** "Load raw log", "Save to file", Cancel, progress, the hourly rule and the filterable view. */
export function RawLogPanel({ api, date, deleted, deletedDays }: RawLogPanelProps) {
  const guard = useMemo(createStoredDumpGuard, []);
  const allowance = useDumpAllowance();
  const [status, setStatus] = useState<ActionStatus>({ state: 'idle' });
  const [progress, setProgress] = useState<DumpProgress | null>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [tick, setTick] = useState(0);
  const [filter, setFilter] = useState<RecordFilter>({ kind: 'all', domainContains: '', clientIp: '' });
  const controller = useRef<AbortController | null>(null);
  const noteId = useId();
  const kindId = useId();
  const domainId = useId();
  const ipId = useId();
  const busy = controller.current !== null || progress !== null;

  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => {
    if (loaded && deletedDays.includes(loaded.date) && !busy) setLoaded(null);
  }, [deletedDays, loaded, busy]);

  const rows = useFilteredRows(loaded, filter, tick);

  const download = useCallback(
    async (save: boolean) => {
      if (controller.current) return;
      let sink: DumpSink | undefined;
      try {
        const verdict = await guard.allowance();
        if (!verdict.allowed) {
          setStatus({
            state: 'failed',
            message: `The raw log can be downloaded once an hour. Next raw log download allowed at ${formatClock(verdict.nextAt)}.`,
          });
          return;
        }
        if (save) {
          // Asked first, while the click still counts as a user gesture (the picker needs one).
          const chosen = await chooseDumpSink(date);
          if (chosen === null) {
            setStatus({ state: 'done', message: 'Nothing was saved: no file was chosen.' });
            return;
          }
          sink = chosen;
        }
      } catch (error) {
        setStatus({ state: 'failed', message: failureText(error) });
        return;
      }

      const abort = new AbortController();
      controller.current = abort;
      const store = createRecordStore();
      const current: Loaded = { date, store };
      setLoaded(current);
      setProgress({ bytes: 0, lines: 0, stored: 0, unrecognised: 0 });
      setStatus({
        state: 'running',
        message: save ? `Saving the raw log of ${date} to a file…` : `Loading the raw log of ${date}…`,
      });
      try {
        const outcome = await guard.run(() =>
          streamDump({
            api,
            date,
            store,
            sink,
            signal: abort.signal,
            onProgress: (p) => {
              setProgress(p);
              setTick((t) => t + 1);
            },
          }),
        );
        current.outcome = outcome;
        const bad =
          outcome.unrecognised > 0
            ? ` ${lines(outcome.unrecognised)} did not follow the log format and ${outcome.unrecognised === 1 ? 'is' : 'are'} shown as "Not recognised".`
            : '';
        const limit = outcome.truncated
          ? ` The view holds the first ${count(outcome.stored)} lines (its memory limit${store.fullReason === 'distinct' ? ' for distinct names' : ''}); Save to file keeps them all.`
          : '';
        const took =
          outcome.elapsedMs < 1000
            ? `${Math.max(1, Math.round(outcome.elapsedMs))} ms`
            : `${(outcome.elapsedMs / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`;
        setStatus({
          state: 'done',
          message: save
            ? `Saved ${dumpFileName(date)}: ${megabytes(outcome.bytes)}, ${lines(outcome.lines)}, in ${took}.${bad}${limit}`
            : `Loaded the raw log of ${date}: ${megabytes(outcome.bytes)}, ${lines(outcome.lines)}, in ${took}.${bad}${limit}`,
        });
      } catch (error) {
        // A refusal before the stream started leaves the chosen file open: let it go.
        await sink?.abort().catch(() => undefined);
        const shown =
          store.size > 0
            ? ` The ${lines(store.size)} received so far ${store.size === 1 ? 'is' : 'are'} shown below.`
            : '';
        if (isApiError(error) && error.kind === 'aborted') {
          setStatus({
            state: 'done',
            message: `Cancelled.${shown} The download still counts as this hour's.${save ? ' The file was not saved.' : ''}`,
          });
        } else {
          setStatus({ state: 'failed', message: `${failureText(error)}${shown}` });
        }
        if (store.size === 0) setLoaded(null);
      } finally {
        controller.current = null;
        setProgress(null);
        setTick((t) => t + 1);
      }
    },
    [api, date, guard],
  );

  const blockedUntil = allowance && !allowance.allowed ? allowance.nextAt : null;
  const note = deleted
    ? 'The raw lines of this day were deleted; its statistics stay above.'
    : blockedUntil !== null
      ? `Next raw log download allowed at ${formatClock(blockedUntil)}.`
      : 'The service allows one raw log download an hour. Save to file is a download of its own (the view does not keep the text) and also fills the view.';
  const disabled = busy || deleted || allowance === null || blockedUntil !== null;

  return (
    <section class="raw-log" aria-labelledby="raw-log-heading">
      <h3 id="raw-log-heading">Raw log</h3>
      <div class="actions">
        <button
          type="button"
          disabled={disabled}
          aria-describedby={noteId}
          onClick={() => void download(false)}
        >
          Load raw log
        </button>
        <button
          type="button"
          disabled={disabled}
          aria-describedby={noteId}
          onClick={() => void download(true)}
        >
          Save to file
        </button>
        {busy && (
          <button type="button" onClick={() => controller.current?.abort()}>
            Cancel
          </button>
        )}
      </div>
      <p id={noteId} class="hint">
        {note}
      </p>
      {progress && (
        <div class="dump-progress">
          <progress aria-label="Raw log download" aria-valuetext={progressText(progress)} />
          <p>{progressText(progress)}</p>
        </div>
      )}
      <StatusMessage status={status} label="Raw log" />
      {loaded && (
        <div class="raw-view">
          <h4>
            Raw log of {loaded.date}
            {loaded.date !== date ? ' (another day than the statistics above)' : ''}
          </h4>
          <div class="filters">
            <div>
              <label for={kindId}>Show</label>
              <select
                id={kindId}
                value={filter.kind}
                onChange={(event) =>
                  setFilter({ ...filter, kind: event.currentTarget.value as RecordFilter['kind'] })
                }
              >
                <option value="all">All lines</option>
                <option value="allowed">Allowed</option>
                <option value="blocked">Blocked</option>
                <option value="unrecognised">Not recognised</option>
              </select>
            </div>
            <div>
              <label for={domainId}>Domain contains</label>
              <input
                id={domainId}
                type="search"
                value={filter.domainContains}
                onInput={(event) => setFilter({ ...filter, domainContains: event.currentTarget.value })}
              />
            </div>
            <div>
              <label for={ipId}>Client IP</label>
              <input
                id={ipId}
                type="search"
                value={filter.clientIp}
                onInput={(event) => setFilter({ ...filter, clientIp: event.currentTarget.value })}
              />
            </div>
          </div>
          <p class="hint">
            {count(rows.length)} of {count(loaded.store.size)} lines shown (
            {count(loaded.store.counts.allowed)} allowed, {count(loaded.store.counts.blocked)} blocked,{' '}
            {count(loaded.store.counts.unrecognised)} not recognised).
          </p>
          <RawLogTable store={loaded.store} rows={rows} label={`Raw log lines of ${loaded.date}`} />
        </div>
      )}
    </section>
  );
}
