/**
 * A whitelist of many entries at the service, added over its API as a person's other tools
 * would: used by the big-list end-to-end test and by the bench's filter figure.
 */

/** The entry at `i`: numbered with five digits, so `site01234` matches exactly one entry. */
export const bigListDomainAt = (i: number) => `site${String(i).padStart(5, '0')}.example.com`;

/** Adds `count` entries to the default profile's whitelist, a few calls at a time. */
export async function seedWhitelist(service: { url: string; key: string }, count: number): Promise<void> {
  const callers = Array.from({ length: 16 }, async (_, caller) => {
    for (let i = caller; i < count; i += 16) {
      const url = `${service.url}/api/v1/?apikey=${encodeURIComponent(service.key)}&action=whitelist/add&domain=${bigListDomainAt(i)}`;
      const response = await fetch(url);
      if (!response.ok) throw new Error(`seeding ${bigListDomainAt(i)}: HTTP ${response.status}`);
      await response.arrayBuffer();
    }
  });
  await Promise.all(callers);
}
