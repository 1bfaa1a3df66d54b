import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { isApiError } from '@/lib/api/errors';
import type { DnsFilterApi } from '@/lib/api/types';
import { formatNumber, messageLocale, t, tn } from '@/lib/i18n';
import { type DumpAllowance, dumpAllowance, formatClock } from '@/lib/logs/dump-guard';
import { type DumpOutcome, type DumpProgress, type DumpSink, streamDump } from '@/lib/logs/load-dump';
import { createRecordStore, type RecordFilter, type RecordStore } from '@/lib/logs/record-store';
import { chooseDumpSink, createKeptCopy, dumpFileName, saveKeptCopy } from '@/lib/logs/save-dump';
import { createStoredDumpGuard } from '@/lib/logs/stored-dump-guard';
import { lastLogDumpItem } from '@/lib/settings/storage';
import { StatusMessage } from '../StatusMessage';
import { type ActionStatus, failedStatus } from '../useRemoteAction';
import { useStoredValue } from '../useStoredValue';
import { RawLogTable } from './RawLogTable';

const megabytes = (bytes: number) =>
  t('rawLog.megabytes', {
    value: (bytes / 1_000_000).toLocaleString(messageLocale(), { maximumFractionDigits: 1 }),
  });
const count = formatNumber;
const lines = (n: number) => tn('rawLog.lines', n);

function progressText(p: DumpProgress): string {
  const figures = { received: megabytes(p.bytes), lines: count(p.lines) };
  return p.unrecognised > 0
    ? t('rawLog.progressBad', { ...figures, bad: count(p.unrecognised) })
    : t('rawLog.progress', figures);
}

/** The hourly allowance as stored, kept current across tabs and re-enabled when the hour is over. */
function useDumpAllowance(): DumpAllowance | null {
  const stored = useStoredValue(lastLogDumpItem, undefined);
  // undefined until storage has answered.
  const lastAt = stored === undefined ? undefined : (stored?.at ?? null);
  const [allowance, setAllowance] = useState<DumpAllowance | null>(null);
  useEffect(() => {
    if (lastAt === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      const next = dumpAllowance(lastAt, Date.now());
      setAllowance(next);
      if (!next.allowed) timer = setTimeout(show, Math.min(next.nextAt - Date.now() + 250, 2 ** 31 - 1));
    };
    show();
    return () => clearTimeout(timer);
  }, [lastAt]);
  return allowance;
}

interface Loaded {
  date: string;
  store: RecordStore;
  /** Set once the download is over (complete, cancelled or failed). */
  outcome?: DumpOutcome;
  /** The whole text of a complete download: "Save to file" writes it without downloading again. */
  kept?: Blob;
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
  const saveNoteId = useId();
  const [savingLoaded, setSavingLoaded] = useState(false);
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
            message: t('rawLog.onceAnHour', { time: formatClock(verdict.nextAt) }),
          });
          return;
        }
        if (save) {
          // Asked first, while the click still counts as a user gesture (the picker needs one).
          const chosen = await chooseDumpSink(date);
          if (chosen === null) {
            setStatus({ state: 'done', message: t('rawLog.noFile') });
            return;
          }
          sink = chosen;
        }
      } catch (error) {
        setStatus(failedStatus(error));
        return;
      }

      const abort = new AbortController();
      controller.current = abort;
      const store = createRecordStore();
      const current: Loaded = { date, store };
      const keep = createKeptCopy();
      setLoaded(current);
      setProgress({ bytes: 0, lines: 0, stored: 0, unrecognised: 0 });
      setStatus({
        state: 'running',
        message: save ? t('rawLog.saving', { date }) : t('rawLog.loading', { date }),
      });
      try {
        const outcome = await guard.run(() =>
          streamDump({
            api,
            date,
            store,
            sink,
            keep,
            signal: abort.signal,
            onProgress: (p) => {
              setProgress(p);
              setTick((t) => t + 1);
            },
          }),
        );
        current.outcome = outcome;
        current.kept = keep.text() ?? undefined;
        const bad = outcome.unrecognised > 0 ? ` ${tn('rawLog.unrecognised', outcome.unrecognised)}` : '';
        const limit = outcome.truncated
          ? ` ${t(store.fullReason === 'distinct' ? 'rawLog.truncatedDistinct' : 'rawLog.truncated', {
              count: count(outcome.stored),
            })}`
          : '';
        const took =
          outcome.elapsedMs < 1000
            ? t('rawLog.milliseconds', { value: count(Math.max(1, Math.round(outcome.elapsedMs))) })
            : t('rawLog.seconds', {
                value: (outcome.elapsedMs / 1000).toLocaleString(messageLocale(), {
                  maximumFractionDigits: 1,
                }),
              });
        const figures = { size: megabytes(outcome.bytes), lines: lines(outcome.lines), took };
        setStatus({
          state: 'done',
          message: `${
            save
              ? t('rawLog.saved', { file: dumpFileName(date), ...figures })
              : t('rawLog.loaded', { date, ...figures })
          }${bad}${limit}`,
        });
      } catch (error) {
        // A refusal before the stream started leaves the chosen file open: let it go.
        await sink?.abort().catch(() => undefined);
        const shown = store.size > 0 ? ` ${tn('rawLog.shownSoFar', store.size)}` : '';
        if (isApiError(error) && error.kind === 'aborted') {
          setStatus({
            state: 'done',
            message: `${t('rawLog.cancelled')}${shown} ${t('rawLog.stillCounts')}${save ? ` ${t('rawLog.notSaved')}` : ''}`,
          });
        } else {
          const failed = failedStatus(error);
          setStatus({ ...failed, message: `${failed.message}${shown}` });
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

  /** Saves the log loaded in the view: no download, so the hourly rule does not apply. */
  const saveLoaded = async (shown: Loaded & { kept: Blob }) => {
    setSavingLoaded(true);
    try {
      const sink = await chooseDumpSink(shown.date);
      if (sink === null) {
        setStatus({ state: 'done', message: t('rawLog.noFile') });
        return;
      }
      setStatus({ state: 'running', message: t('rawLog.savingLoaded', { date: shown.date }) });
      await saveKeptCopy(shown.kept, sink);
      setStatus({
        state: 'done',
        message: t('rawLog.savedLoaded', {
          file: dumpFileName(shown.date),
          size: megabytes(shown.kept.size),
          lines: lines(shown.outcome?.lines ?? shown.store.size),
        }),
      });
    } catch (error) {
      setStatus(failedStatus(error));
    } finally {
      setSavingLoaded(false);
    }
  };
  const savable = loaded?.kept !== undefined && loaded.date === date && !busy ? loaded : null;

  const blockedUntil = allowance && !allowance.allowed ? allowance.nextAt : null;
  const note = deleted
    ? t('rawLog.deleted')
    : blockedUntil !== null
      ? t('rawLog.nextAt', { time: formatClock(blockedUntil) })
      : t('rawLog.rule');
  const disabled = busy || savingLoaded || deleted || allowance === null || blockedUntil !== null;

  return (
    <section class="raw-log" aria-labelledby="raw-log-heading">
      <h3 id="raw-log-heading">{t('rawLog.heading')}</h3>
      <div class="actions">
        <button
          type="button"
          disabled={disabled}
          aria-describedby={noteId}
          onClick={() => void download(false)}
        >
          {t('rawLog.load')}
        </button>
        <button
          type="button"
          disabled={savable ? savingLoaded : disabled}
          aria-describedby={savable ? saveNoteId : noteId}
          onClick={() =>
            void (savable?.kept ? saveLoaded({ ...savable, kept: savable.kept }) : download(true))
          }
        >
          {t('rawLog.saveToFile')}
        </button>
        {busy && (
          <button type="button" onClick={() => controller.current?.abort()}>
            {t('rawLog.cancel')}
          </button>
        )}
      </div>
      <p id={noteId} class="hint">
        {note}
      </p>
      {savable ? (
        <p id={saveNoteId} class="hint">
          {t('rawLog.saveLoadedNote', { date: savable.date })}
        </p>
      ) : null}
      {progress && (
        <div class="dump-progress">
          <progress aria-label={t('rawLog.downloadLabel')} aria-valuetext={progressText(progress)} />
          <p>{progressText(progress)}</p>
        </div>
      )}
      <StatusMessage status={status} label={t('rawLog.heading')} />
      {loaded && (
        <div class="raw-view">
          <h4>
            {t(loaded.date !== date ? 'rawLog.viewHeadingOtherDay' : 'rawLog.viewHeading', {
              date: loaded.date,
            })}
          </h4>
          <div class="filters">
            <div>
              <label for={kindId}>{t('rawLog.show')}</label>
              <select
                id={kindId}
                value={filter.kind}
                onChange={(event) =>
                  setFilter({ ...filter, kind: event.currentTarget.value as RecordFilter['kind'] })
                }
              >
                <option value="all">{t('rawLog.allLines')}</option>
                <option value="allowed">{t('rawLog.allowed')}</option>
                <option value="blocked">{t('rawLog.blocked')}</option>
                <option value="unrecognised">{t('rawLog.notRecognised')}</option>
              </select>
            </div>
            <div>
              <label for={domainId}>{t('rawLog.domainContains')}</label>
              <input
                id={domainId}
                type="search"
                value={filter.domainContains}
                onInput={(event) => setFilter({ ...filter, domainContains: event.currentTarget.value })}
              />
            </div>
            <div>
              <label for={ipId}>{t('rawLog.clientIp')}</label>
              <input
                id={ipId}
                type="search"
                value={filter.clientIp}
                onInput={(event) => setFilter({ ...filter, clientIp: event.currentTarget.value })}
              />
            </div>
          </div>
          <p class="hint">
            {t('rawLog.counts', {
              shown: count(rows.length),
              total: count(loaded.store.size),
              allowed: count(loaded.store.counts.allowed),
              blocked: count(loaded.store.counts.blocked),
              unrecognised: count(loaded.store.counts.unrecognised),
            })}
          </p>
          <RawLogTable
            store={loaded.store}
            rows={rows}
            label={t('rawLog.tableLabel', { date: loaded.date })}
          />
        </div>
      )}
    </section>
  );
}
