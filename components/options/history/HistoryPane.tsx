import { useMemo } from 'preact/hooks';
import type { DnsFilterApi } from '@/lib/api/types';
import { historyServicesFor } from '@/lib/history/page';
import { HistorySection } from './HistorySection';

/** The History section for the account the page shows, with the real services (lib/history/page.ts). */
export function HistoryPane({ account, client }: { account: string; client: DnsFilterApi }) {
  const services = useMemo(() => historyServicesFor(account, client), [account, client]);
  return <HistorySection services={services} />;
}
