/**
 * Registrable domains for the popup. The worker already bundles the Public Suffix List (the
 * context menu needs it), so the popup asks it rather than loading the list's 47 kB itself; only
 * when the worker gives no usable answer is the list loaded here.
 */
import { loadWorker } from './worker';

/**
 * The registrable domain of a host, or null for a host that is itself a public suffix (co.uk,
 * cloudfront.net): it has none, and the popup offers no list entry for it.
 */
export type RegistrableAnswer = string | null;

/** One answer per host, in order; null when the worker gave no usable answer. */
export type AskWorkerForDomains = (hosts: readonly string[]) => Promise<readonly RegistrableAnswer[] | null>;

export const askWorkerForDomains: AskWorkerForDomains = async (hosts) => {
  const answer = await loadWorker()
    .then((worker) => worker.registrableDomains(hosts))
    .catch(() => null);
  return answer !== null && answer.domains.length === hosts.length ? answer.domains : null;
};

export async function registrableDomainsOf(
  hosts: readonly string[],
  ask: AskWorkerForDomains = askWorkerForDomains,
): Promise<readonly RegistrableAnswer[]> {
  if (hosts.length === 0) return [];
  const answered = await ask(hosts);
  if (answered !== null) return answered;
  const { registrableDomainOrNull } = await import('@/lib/filtering/domain');
  return hosts.map(registrableDomainOrNull);
}
