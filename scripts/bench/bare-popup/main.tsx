/**
 * The bare reference popup (./README.md): the product's popup page, first script and stylesheet,
 * with this module in place of entrypoints/popup/main.tsx. It takes the tab and the storage values
 * the first script read early, unchecked, decides from the cached lists alone and renders the
 * product's header and verdict card, then marks `verdict`. No zod, no WXT storage, no controller:
 * what any popup that shows this verdict pays, whatever its code.
 */
import { render } from 'preact';
import { PopupHeader } from '@/components/popup/PopupHeader';
import { VerdictHero } from '@/components/popup/VerdictHero';
import { bucketKeysFor, joinBuckets, scopeOfBucketKey } from '@/lib/cache/list-buckets';
import { packedDomainIndex } from '@/lib/filtering/domain-index';
import { hostnameFromUrl } from '@/lib/filtering/hostname';
import { verdictFor } from '@/lib/filtering/verdict';
import { t } from '@/lib/i18n';
import { createEarlyReadSource, hintedKeys } from '@/lib/popup/early-reads';
import { markStep } from '@/lib/popup/mark-step';
import { readTabAddress, takeEarlyTab } from '@/lib/popup/read-tab';
import { pageLocalStorage } from '@/lib/theme/first-paint';
import '@/entrypoints/popup/style.css';

markStep('modules');

type StorageArea = { get(keys: string[]): Promise<Record<string, unknown>> };
type Api = { storage: { local: StorageArea }; tabs: Parameters<typeof readTabAddress>[0] };
const scope = globalThis as { browser?: Api; chrome?: Api };
const api = (scope.browser ?? scope.chrome) as Api;
const LOCAL = 'local:';

/** The verdict's word (lib/popup/view.ts has the same; importing it would bring the storage layer). */
const WORDS = {
  blocked: 'popup.word.blocked',
  allowed: 'popup.word.allowed',
  'not-blocked': 'popup.word.notBlocked',
} as const;

async function showVerdict(remembered: readonly string[]): Promise<void> {
  const tab = await (takeEarlyTab() ?? readTabAddress(api.tabs, location.search));
  const host = tab.url === undefined ? null : hostnameFromUrl(tab.url);
  if (host === null) return;
  const isBucket = (key: string) => scopeOfBucketKey(key) !== null;
  const keys = [
    ...remembered.filter((key) => !isBucket(key)),
    ...bucketKeysFor(remembered.filter(isBucket), host),
  ];
  const readNow = async (wanted: string[]) => {
    const answer = await api.storage.local.get(wanted.map((key) => key.slice(LOCAL.length)));
    return new Map(wanted.map((key) => [key, answer[key.slice(LOCAL.length)]] as const));
  };
  const values = await createEarlyReadSource().read(
    keys.map((key) => LOCAL + key),
    readNow,
  );
  markStep('settings');
  const buckets = [...values]
    .filter(
      ([key, value]) => isBucket(key.slice(LOCAL.length)) && typeof value === 'object' && value !== null,
    )
    .map(([, value]) => value as { whitelist: string; blocklist: string });
  const lists = joinBuckets(buckets);
  const verdict = verdictFor(host, {
    whitelist: packedDomainIndex(lists.whitelist),
    blocklist: packedDomainIndex(lists.blocklist),
    blockedTlds: [],
    defaultBlock: false,
  });
  markStep('lists');
  render(
    <>
      <PopupHeader openOptions={() => {}} />
      <main class="popup">
        <VerdictHero
          host={host}
          tone={verdict.kind}
          headline={{ word: t(WORDS[verdict.kind]), reason: '' }}
          text={t(WORDS[verdict.kind])}
        />
      </main>
    </>,
    document.getElementById('app') as HTMLElement,
  );
  performance.mark('verdict');
}

// The keys the product's popup read at its last opening (lib/popup/early-reads.ts). Until they
// name the cached lists (`cachedLists:<scope> <account>`, lib/settings/storage.ts), the product's
// own popup runs: it fetches the lists, caches them and remembers what the next opening reads.
const remembered = hintedKeys(pageLocalStorage() ?? { getItem: () => null });
if (remembered.some((key) => key.startsWith('cachedLists:'))) void showVerdict(remembered);
else void import('@/entrypoints/popup/main');
