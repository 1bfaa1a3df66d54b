/** The zod schemas of the lock's stored records (./state.ts), checked on every write. */
import * as z from 'zod/mini';

export const MIN_IDLE_MINUTES = 1;
export const MAX_IDLE_MINUTES = 24 * 60;

const base64 = z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/), z.maxLength(64 * 1024));

export const lockRecordSchema = z.object({
  version: z.literal(1),
  /** The keys `{ apiKey, accountKeys }` as JSON, sealed (./crypto.ts). */
  box: z.object({
    salt: base64,
    iterations: z.number().check(z.int(), z.gte(600_000)),
    iv: base64,
    data: base64,
  }),
  /** Locks again after this long without use of what it guards. */
  idleMinutes: z.number().check(z.int(), z.gte(MIN_IDLE_MINUTES), z.lte(MAX_IDLE_MINUTES)),
  /** Per account id: what work needing its key does while locked (docs/lock.md, "Background work"). */
  background: z.record(z.string().check(z.maxLength(64)), z.enum(['keep', 'strict'])),
  turnedOnAt: z.number(),
});

export const failuresSchema = z.object({ count: z.number().check(z.int(), z.gte(0)), lastAt: z.number() });

export const lockSessionSchema = z.object({ unlockedAt: z.number(), lastUsedAt: z.number() });

/** The keys as they are sealed: the active account's and the other accounts' by id. */
export const sealedKeysSchema = z.object({
  apiKey: z.string().check(z.maxLength(512)),
  accountKeys: z.record(z.string(), z.string().check(z.maxLength(512))),
});
