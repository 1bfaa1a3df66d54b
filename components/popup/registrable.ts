/**
 * Registrable domains for the popup. The worker already bundles the Public Suffix List (the
 * context menu needs it), so the popup asks it rather than loading the list's 47 kB itself; only
 * when the worker gives no usable answer is the list loaded here.
 */
import { browser } from 'wxt/browser';
import { type Request, registrableDomainsResponseSchema } from '@/lib/messaging/protocol';

/** One registrable domain per host, in order; null when the worker gave no usable answer. */
export type AskWorkerForDomains = (hosts: readonly string[]) => Promise<readonly string[] | null>;

export const askWorkerForDomains: AskWorkerForDomains = async (hosts) => {
  try {
    const request: Request = { type: 'registrable-domains', hosts: [...hosts] };
    const parsed = registrableDomainsResponseSchema.safeParse(await browser.runtime.sendMessage(request));
    return parsed.success && parsed.data.domains.length === hosts.length ? parsed.data.domains : null;
  } catch {
    return null;
  }
};

export async function registrableDomainsOf(
  hosts: readonly string[],
  ask: AskWorkerForDomains = askWorkerForDomains,
): Promise<readonly string[]> {
  if (hosts.length === 0) return [];
  const answered = await ask(hosts);
  if (answered !== null) return answered;
  const { registrableDomain } = await import('@/lib/filtering/domain');
  return hosts.map(registrableDomain);
}
