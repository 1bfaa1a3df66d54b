/**
 * Sending a request to the background worker from an extension page. The answer is a trust
 * boundary like any other: it is checked with the schema its request promises.
 */
import { browser } from 'wxt/browser';
import type * as z from 'zod/mini';
import type { Request } from './protocol';

/** The worker's answer to `request`, checked by `schema`; null when it gave none or another. Never rejects. */
export async function askWorker<S extends z.ZodMiniType>(
  request: Request,
  schema: S,
): Promise<z.infer<S> | null> {
  try {
    const parsed = schema.safeParse(await browser.runtime.sendMessage(request));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
