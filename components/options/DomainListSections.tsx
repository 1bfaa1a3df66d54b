import { useMemo } from 'preact/hooks';
import type { DomainListKind } from '@/lib/api/types';
import { domainsOnBothLists, sortDomains } from '@/lib/lists/sorted-domains';
import { useRemoteData } from '../useRemoteData';
import { useAccount } from './account-context';
import { DomainListSection } from './DomainListSection';
import { ManagedSection } from './ManagedSection';
import { SeveralProfilesSection } from './SeveralProfilesSection';

/** Whitelist and Blocklist: loaded together because each flags domains that are on the other too. */
export function DomainListSections() {
  const { client, profile } = useAccount();
  const load = (list: DomainListKind) => async (signal: AbortSignal) =>
    sortDomains(await client.listDomains(list, profile, { signal })) as readonly string[];
  const whitelist = useRemoteData(load('whitelist'), [client, profile]);
  const blocklist = useRemoteData(load('blocklist'), [client, profile]);

  const white = whitelist.data.data;
  const black = blocklist.data.data;
  const conflicts = useMemo(() => (white && black ? domainsOnBothLists(white, black) : []), [white, black]);

  return (
    <>
      <ManagedSection id="whitelist">
        <DomainListSection list="whitelist" remote={whitelist} conflicts={conflicts} />
      </ManagedSection>
      <ManagedSection id="blocklist">
        <DomainListSection list="blocklist" remote={blocklist} conflicts={conflicts} />
      </ManagedSection>
      <ManagedSection id="whitelist">
        <ManagedSection id="blocklist">
          <SeveralProfilesSection />
        </ManagedSection>
      </ManagedSection>
    </>
  );
}
