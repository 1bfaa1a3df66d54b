/**
 * Every message between extension pages and the background worker, in one place. Both sides
 * validate with these schemas: a message that does not parse is ignored, and so is any message
 * that does not come from this extension's own pages.
 */
import { z } from 'zod';

/** A one-click change to a domain list, as the popup, the context menu or a shortcut asks for it. */
export const listChangeSchema = z.object({
  op: z.enum(['add', 'remove']),
  list: z.enum(['whitelist', 'blocklist']),
  domain: z.string().min(1).max(253),
  /** Form A profile; omitted in Form B (whole account). */
  profile: z.string().optional(),
  source: z.enum(['popup', 'menu', 'shortcut', 'temporary-allow', 'logs']),
});
export type ListChange = z.infer<typeof listChangeSchema>;

/** What the sender learns about a submitted change. */
export const changeOutcomeSchema = z.object({
  /** delivered: the service confirmed it; pending: queued, will be retried; failed: the service refused it. */
  state: z.enum(['delivered', 'pending', 'failed']),
  message: z.string(),
});
export type ChangeOutcome = z.infer<typeof changeOutcomeSchema>;

export const requestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('submit-change'), change: listChangeSchema }),
]);
export type Request = z.infer<typeof requestSchema>;
