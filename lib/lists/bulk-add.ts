/**
 * Adds many domains to a list, one service call per domain (the API has no bulk action), in
 * order, reporting progress after each. Framework-free so the options page and tests share it.
 */
import { type ApiError, isApiError } from '@/lib/api/errors';
import { t } from '@/lib/i18n';

export type BulkOutcomeState =
  /** The service confirmed the addition. */
  | 'added'
  /** Already on the list: no call was made. */
  | 'already'
  /** The service or the connection refused it; `message` says why. */
  | 'failed'
  /** Not tried: the run was stopped, or an earlier failure meant every call would fail. */
  | 'not-tried';

export interface BulkOutcome {
  domain: string;
  state: BulkOutcomeState;
  message: string;
}

export interface BulkProgress {
  /** Domains handled so far, including the current one once its outcome is known. */
  done: number;
  total: number;
  outcome: BulkOutcome;
}

export interface BulkAddOptions {
  domains: readonly string[];
  /** Domains already on the list; they are reported as such without a call. */
  existing?: ReadonlySet<string>;
  add: (domain: string, signal: AbortSignal | undefined) => Promise<void>;
  onProgress?: (progress: BulkProgress) => void;
  signal?: AbortSignal;
}

export interface BulkAddSummary {
  outcomes: BulkOutcome[];
  added: number;
  already: number;
  failed: number;
  notTried: number;
  /** Why the run ended early, when it did. */
  stoppedBecause?: string;
}

/** Failures after which every following call would fail the same way. */
function stopsTheRun(error: unknown): error is ApiError {
  return (
    isApiError(error) &&
    // 'server': the service is busy or failing; more calls now would only add to its load.
    (error.kind === 'bad-key' ||
      error.kind === 'network' ||
      error.kind === 'server' ||
      error.kind === 'aborted')
  );
}

function messageOf(error: unknown): string {
  return isApiError(error) ? error.message : t('bulkAdd.internalFailure');
}

export async function runBulkAdd(options: BulkAddOptions): Promise<BulkAddSummary> {
  const { domains, existing, add, onProgress, signal } = options;
  const outcomes: BulkOutcome[] = [];
  let stoppedBecause: string | undefined;
  const report = (outcome: BulkOutcome) => {
    outcomes.push(outcome);
    onProgress?.({ done: outcomes.length, total: domains.length, outcome });
  };

  for (const domain of domains) {
    if (stoppedBecause === undefined && signal?.aborted) stoppedBecause = t('bulkAdd.stopped');
    if (stoppedBecause !== undefined) {
      report({ domain, state: 'not-tried', message: t('bulkAdd.notTried', { reason: stoppedBecause }) });
      continue;
    }
    if (existing?.has(domain)) {
      report({ domain, state: 'already', message: t('bulkAdd.already') });
      continue;
    }
    try {
      await add(domain, signal);
      report({ domain, state: 'added', message: t('bulkAdd.added') });
    } catch (error) {
      const aborted = isApiError(error) && error.kind === 'aborted';
      if (stopsTheRun(error)) stoppedBecause = aborted ? t('bulkAdd.stopped') : messageOf(error);
      report(
        aborted
          ? { domain, state: 'not-tried', message: t('bulkAdd.notTried', { reason: t('bulkAdd.stopped') }) }
          : { domain, state: 'failed', message: messageOf(error) },
      );
    }
  }

  const count = (state: BulkOutcomeState) => outcomes.filter((outcome) => outcome.state === state).length;
  return {
    outcomes,
    added: count('added'),
    already: count('already'),
    failed: count('failed'),
    notTried: count('not-tried'),
    ...(stoppedBecause !== undefined ? { stoppedBecause } : {}),
  };
}
