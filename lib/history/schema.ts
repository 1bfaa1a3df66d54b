/**
 * The stored shapes of the history (docs/history.md, "Storage"), version inside the value as the
 * notes keep it: a head per account naming its records, and one key per record. Everything read
 * back is checked here; a damaged record ends the chain there (the snapshots before it stay).
 */
import * as z from 'zod/mini';
import { SECTION_KINDS } from './model';

export const HISTORY_VERSION = 1;

export const historyHeadKeyOf = (account: string) => `local:history:${account}` as const;
export const historyRecordKeyOf = (account: string, id: string) =>
  `local:historyRecord:${account}:${id}` as const;

const reasonSchema = z.enum(['daily', 'manual', 'before-rollback', 'after-rollback']);

export const historyHeadSchema = z.object({
  v: z.literal(HISTORY_VERSION),
  records: z.array(
    z.object({
      id: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/)),
      takenAt: z.number(),
      reason: reasonSchema,
      /** Characters stored under the record's key: the budget counts them. */
      size: z.int().check(z.gte(0)),
    }),
  ),
});
export type HistoryHead = z.infer<typeof historyHeadSchema>;

export const storedRecordSchema = z.object({ v: z.literal(HISTORY_VERSION), packed: z.string() });

const sectionKeySchema = z
  .string()
  .check(z.refine((key) => SECTION_KINDS.some((kind) => key.startsWith(`${kind}\t`))));
const entriesSchema = z.array(z.string());
const sectionsSchema = z.record(sectionKeySchema, entriesSchema);

export const chainRecordBodySchema = z.union([
  z.object({ whole: sectionsSchema }),
  z.object({
    delta: z.object({
      changed: z.record(sectionKeySchema, z.object({ add: entriesSchema, remove: entriesSchema })),
      dropped: z.array(sectionKeySchema),
    }),
  }),
]);

/** Retention and schedule, for all accounts (a setting of this browser). */
export const historySettingsSchema = z.object({
  v: z.literal(HISTORY_VERSION),
  /** Snapshots older than this many days go (the newest always stays). */
  retentionDays: z.int().check(z.gte(1), z.lte(3650)),
});
export type HistorySettings = z.infer<typeof historySettingsSchema>;

export const HISTORY_SETTINGS_KEY = 'local:historySettings' as const;
export const DEFAULT_HISTORY_SETTINGS: HistorySettings = { v: HISTORY_VERSION, retentionDays: 90 };

export const rollbackJobKeyOf = (account: string) => `local:historyRollback:${account}` as const;
export const rollbacksDoneKeyOf = (account: string) => `local:historyRollbacksDone:${account}` as const;

export const rollbackStepSchema = z.object({
  kind: z.enum(SECTION_KINDS),
  scope: z.string(),
  entry: z.string(),
  op: z.enum(['add', 'remove']),
});

export const rollbackJobSchema = z.object({
  v: z.literal(HISTORY_VERSION),
  id: z.string(),
  /** The account identity it was made for (lib/identity/identity.ts): sent there only. */
  account: z.string(),
  /** When the snapshot rolled back to was taken. */
  snapshotTakenAt: z.number(),
  createdAt: z.number(),
  steps: z.array(rollbackStepSchema),
  /** Steps before this index are done (or refused, below). */
  next: z.int().check(z.gte(0)),
  /** Steps the service refused, with its reason. */
  refused: z.array(z.object({ index: z.int(), message: z.string() })),
  attempts: z.int().check(z.gte(0)),
  /** Not tried again before this (backoff, or the service's Retry-After). */
  nextAttemptAt: z.number(),
  lastError: z.optional(z.string()),
});

/** Rollbacks that ended, newest last (what changed names their changes as this browser's). */
export const rollbacksDoneSchema = z.object({
  v: z.literal(HISTORY_VERSION),
  done: z.array(z.object({ from: z.number(), to: z.number(), steps: z.array(rollbackStepSchema) })),
});
export const ROLLBACKS_DONE_KEPT = 10;
