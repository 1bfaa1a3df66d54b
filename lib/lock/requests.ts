/**
 * "Ask for access" (docs/lock.md, "Asking instead of changing"): a locked popup records a request
 * for the site it shows; the options page lists the open ones after unlocking, each approved or
 * declined in one click, its text copyable. Stored in storage.local `accessRequests`: no key in
 * it, bounded; the page is kept as its address without query or fragment.
 */
import { browser } from 'wxt/browser';
import * as z from 'zod/mini';
import { watchRaw } from '@/lib/settings/item';

export const ACCESS_REQUESTS_NAME = 'accessRequests';
export const MAX_ACCESS_REQUESTS = 50;
const MAX_MESSAGE = 500;

export const accessRequestSchema = z.object({
  id: z.string().check(z.maxLength(64)),
  site: z.string().check(z.minLength(1), z.maxLength(253)),
  /** Form A: the profile the popup showed; absent: the whole account (Form B). */
  profile: z.optional(z.string().check(z.maxLength(200))),
  page: z.string().check(z.maxLength(2_000)),
  /** The account the popup showed (lib/accounts id), so approval goes to the same one. */
  accountId: z.string().check(z.maxLength(64)),
  at: z.number(),
  message: z.string().check(z.maxLength(MAX_MESSAGE)),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;
const requestsSchema = z.array(accessRequestSchema).check(z.maxLength(MAX_ACCESS_REQUESTS));

/** The page's address as a request keeps it: no query or fragment (they may hold personal data). */
export function pageWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '';
  }
}

export async function readAccessRequests(): Promise<AccessRequest[]> {
  const parsed = requestsSchema.safeParse(
    (await browser.storage.local.get(ACCESS_REQUESTS_NAME))[ACCESS_REQUESTS_NAME],
  );
  return parsed.success ? parsed.data : [];
}

/** Records a request; the oldest go when there are too many. A second one for the same site replaces the first. */
export async function recordAccessRequest(
  request: Omit<AccessRequest, 'id' | 'page' | 'message'> & { page: string; message: string },
): Promise<AccessRequest> {
  const entry = accessRequestSchema.parse({
    ...request,
    id: crypto.randomUUID(),
    page: pageWithoutQuery(request.page),
    message: request.message.trim().slice(0, MAX_MESSAGE),
  });
  const others = (await readAccessRequests()).filter(
    (open) => !(open.site === entry.site && open.accountId === entry.accountId),
  );
  const next = requestsSchema.parse([...others, entry].slice(-MAX_ACCESS_REQUESTS));
  await browser.storage.local.set({ [ACCESS_REQUESTS_NAME]: next });
  return entry;
}

/** Removes a request once approved or declined. */
export async function settleAccessRequest(id: string): Promise<void> {
  const open = await readAccessRequests();
  await browser.storage.local.set({ [ACCESS_REQUESTS_NAME]: open.filter((request) => request.id !== id) });
}

/** Calls back with the open requests whenever they change; returns the unwatch function. */
export function watchAccessRequests(callback: (requests: AccessRequest[]) => void): () => void {
  return watchRaw('local', ACCESS_REQUESTS_NAME, () => void readAccessRequests().then(callback));
}
