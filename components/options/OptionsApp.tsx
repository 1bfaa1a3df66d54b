import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { followedAccounts } from '@/lib/accounts';
import { t } from '@/lib/i18n';
import { countUseOf } from '@/lib/lock/options-lock';
import { bringSectionToTop, type ScrollingWindow } from '@/lib/options/bring-to-top';
import { createSectionRouter, type RouterWindow } from '@/lib/options/router';
import {
  isFirstOfView,
  type RouteContext,
  type SectionRoute,
  sectionsInView,
  type ViewId,
} from '@/lib/options/routes';
import { changesForOtherAccounts } from '@/lib/outbox';
import { outboxItem } from '@/lib/settings/storage';
import { MenuIcon } from '../icons/Icon';
import { UnreadableNotice } from '../UnreadableNotice';
import { useAccountIdentity } from '../useAccountIdentity';
import { useConfiguredClient } from '../useConfiguredClient';
import { useStoredValue } from '../useStoredValue';
import type { AccountView } from './AccountManagement';
import { AccountPanel } from './AccountPanel';
import { AccountsSettings, ActiveAccountBar } from './AccountsSettings';
import { AppearanceSection } from './AppearanceSection';
import { BackupSection } from './BackupSection';
import { DiagnosisSection } from './DiagnosisSection';
import { DynamicIpSection } from './DynamicIpSection';
import { HistoryPane } from './history/HistoryPane';
import { LockedPage, LockSection, useLockStatus } from './LockSection';
import { LogsSection } from './LogsSection';
import { ManagedNotice } from './ManagedNotice';
import { ManagedSection } from './ManagedSection';
import { MenuSection } from './MenuSection';
import { OptionsNav } from './OptionsNav';
import { OtherAccountChangesSection } from './OtherAccountChanges';
import { OverviewSection } from './OverviewSection';
import { Pane } from './Pane';
import { usePolicy } from './policy-context';
import { SchedulesSection } from './SchedulesSection';
import { SetupSection } from './SetupSection';
import { UnsavedChangesContext } from './unsaved';
import { Welcome } from './Welcome';

const NAV_ID = 'options-nav';

/** Sections with unsaved changes, and the browser's warning when the page is left with some. */
function useUnsavedSections() {
  const [unsaved, setUnsaved] = useState<ReadonlySet<string>>(new Set());
  const registry = useMemo(
    () => ({
      set: (section: string, value: boolean) =>
        setUnsaved((current) => {
          if (current.has(section) === value) return current;
          const next = new Set(current);
          if (value) next.add(section);
          else next.delete(section);
          return next;
        }),
    }),
    [],
  );
  useEffect(() => {
    if (unsaved.size === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [unsaved.size > 0]);
  return { unsaved, registry };
}

/**
 * The options page as an app: a header, the navigation (a side menu; behind a menu button on
 * narrow windows) and one view at a time, named by the address (`options.html#logs`,
 * lib/options/routes.ts). Without a key, the page is the welcome: Setup, and the sections that
 * need no key.
 */
export function OptionsApp({
  win = window as RouterWindow & ScrollingWindow,
}: {
  win?: RouterWindow & ScrollingWindow;
}) {
  const configured = useConfiguredClient();
  const identity = useAccountIdentity();
  const outbox = useStoredValue(outboxItem, []);
  const accounts = useStoredValue(followedAccounts, null);
  // Setup changes the active account's key, address and form: the policy's when it set it up.
  const policy = usePolicy();
  const activeManaged = (accounts && policy?.managedAccounts.has(accounts.activeId)) ?? false;
  const router = useMemo(() => createSectionRouter(win), [win]);
  const [, setAddressChanges] = useState(0);
  const [welcomeOutcome, setWelcomeOutcome] = useState<string | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const [focusAfterRender, setFocusAfterRender] = useState<SectionRoute | null>(null);
  const { unsaved, registry } = useUnsavedSections();
  const main = useRef<HTMLElement>(null);
  const stopWaitingForHeading = useRef<() => void>(() => {});
  // While locked, the page asks for the passphrase before anything else (docs/lock.md).
  const lock = useLockStatus();
  const locked = lock?.on === true && !lock.unlocked;
  useEffect(
    () => (lock?.on && lock.unlocked ? countUseOf(win as unknown as EventTarget) : undefined),
    [lock?.on, lock?.unlocked],
  );

  const context: RouteContext = {
    // The welcome's Save has just stored a key: the Overview is shown before the stored key is read back.
    // Locked, the key may be unreadable, yet there is one: the page is no welcome.
    hasKey: configured.state === 'ready' || welcomeOutcome !== null || lock?.on === true,
    // Changes of every account of this browser are delivered to it; only the others wait there.
    otherAccountChanges:
      identity !== null &&
      changesForOtherAccounts(outbox, [
        identity.id,
        ...(accounts?.accounts.map((account) => account.identity.id) ?? []),
      ]).length > 0,
  };
  const loading = configured.state === 'loading' || lock === null;
  const current = router.current(context);

  useEffect(
    () =>
      router.follow(() => {
        setAddressChanges((n) => n + 1);
        setFocusAfterRender(router.current(context));
      }),
    [router, context.hasKey, context.otherAccountChanges],
  );
  // The address names what is shown, so a reload or a bookmark opens it again.
  // Read again, not taken from the render: a section chosen before this effect ran is kept.
  useEffect(() => {
    if (!loading) router.settle(router.current(context));
  }, [loading, current.id]);
  // A page opened at the address of a section further down its view (the popup's link to the
  // whitelist, a bookmark, a reload) shows it as choosing it does: its heading at the top.
  const openedAtAddress = useRef(win.location.hash !== '');
  useEffect(() => {
    if (loading || !openedAtAddress.current) return;
    openedAtAddress.current = false;
    const section = router.current(context);
    if (!isFirstOfView(section)) setFocusAfterRender(section);
  }, [loading]);
  // After a section is chosen, by the navigation or by back and forward: its heading at the top.
  useEffect(() => {
    if (focusAfterRender === null) return;
    stopWaitingForHeading.current();
    if (main.current) {
      stopWaitingForHeading.current = bringSectionToTop(
        main.current,
        { title: t(focusAfterRender.title), first: isFirstOfView(focusAfterRender) },
        win,
      );
    }
    setFocusAfterRender(null);
  }, [focusAfterRender]);
  useEffect(() => () => stopWaitingForHeading.current(), []);

  const choose = (section: SectionRoute) => {
    router.go(section);
    setMenuOpen(false);
    setAddressChanges((n) => n + 1);
    setFocusAfterRender(section);
  };

  const view = current.view;
  const shows = (which: ViewId) => !loading && view === which;
  const accountView = view === 'filtering' || view === 'profiles' || view === 'networks' ? view : null;
  // Hidden, the account sections keep the view they last showed (nothing else is loaded meanwhile).
  const lastAccountView = useRef<AccountView>('filtering');
  if (accountView !== null) lastAccountView.current = accountView;

  return (
    <UnsavedChangesContext.Provider value={registry}>
      <div class={menuOpen ? 'options-app nav-open' : 'options-app'}>
        <header class="options-header">
          <button
            type="button"
            class="btn btn-ghost nav-toggle"
            aria-expanded={menuOpen}
            aria-controls={NAV_ID}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <MenuIcon />
            <span>{t('nav.menuButton')}</span>
          </button>
          <img class="options-logo" src="/icon/32.png" alt="" width="24" height="24" />
          <h1 class="options-title">{t('options.heading')}</h1>
          {/* Room for header controls (the account switcher of several accounts). */}
          <div class="options-header-slot">
            <ActiveAccountBar />
          </div>
        </header>
        <div class="options-body">
          {!loading && !locked && (
            <OptionsNav id={NAV_ID} context={context} current={current} unsaved={unsaved} onChoose={choose} />
          )}
          <main class="options" ref={main}>
            <UnreadableNotice />
            <ManagedNotice />
            {locked ? (
              <LockedPage />
            ) : (
              <>
                <Pane shown={shows('overview')}>
                  {configured.state === 'ready' ? (
                    <OverviewSection
                      client={configured.client}
                      connection={configured.connection}
                      account={configured.account}
                      welcome={welcomeOutcome}
                    />
                  ) : (
                    <p class="hint">{t('overview.loading')}</p>
                  )}
                </Pane>
                <Pane shown={shows('other-accounts')}>
                  <OtherAccountChangesSection />
                </Pane>
                <Pane shown={accountView !== null && !loading}>
                  <AccountPanel view={lastAccountView.current} />
                </Pane>
                <Pane shown={shows('networks')}>
                  <ManagedSection id="dynamic-ip">
                    <DynamicIpSection />
                  </ManagedSection>
                </Pane>
                <Pane shown={shows('schedules')}>
                  {configured.state === 'ready' ? (
                    <SchedulesSection client={configured.client} />
                  ) : (
                    <p class="hint">{t('overview.loading')}</p>
                  )}
                </Pane>
                <Pane shown={shows('logs')}>
                  <ManagedSection id="logs">
                    <LogsSection />
                  </ManagedSection>
                </Pane>
                <Pane shown={shows('history')}>
                  {configured.state === 'ready' && (
                    <HistoryPane account={configured.account.id} client={configured.client} />
                  )}
                </Pane>
                <Pane shown={shows('setup')}>
                  {!context.hasKey && <Welcome />}
                  <ManagedSection
                    id="setup"
                    closed={activeManaged}
                    message={activeManaged ? t('policy.accountManaged') : undefined}
                  >
                    <SetupSection
                      firstRun={configured.state === 'no-key'}
                      onConnected={(outcome) => {
                        setWelcomeOutcome(outcome);
                        // The Overview follows the welcome, unless another section was chosen
                        // while the connection was tested: that one stays.
                        if (router.names({ id: 'setup' }))
                          choose(sectionsInView('overview')[0] as SectionRoute);
                      }}
                    />
                  </ManagedSection>
                </Pane>
                <Pane shown={shows('accounts')}>
                  <ManagedSection id="accounts">
                    <AccountsSettings />
                  </ManagedSection>
                </Pane>
                <Pane shown={shows('appearance')}>
                  <AppearanceSection />
                </Pane>
                <Pane shown={shows('menu')}>
                  <ManagedSection id="menu">
                    <MenuSection />
                  </ManagedSection>
                </Pane>
                <Pane shown={shows('diagnosis')}>
                  <ManagedSection id="diagnosis">
                    <DiagnosisSection />
                  </ManagedSection>
                </Pane>
                <Pane shown={shows('backup')}>
                  <ManagedSection id="backup">
                    <BackupSection />
                  </ManagedSection>
                </Pane>
                <Pane shown={shows('lock')}>
                  <LockSection status={lock} lockRequired={policy?.scope.lockRequired ?? false} />
                </Pane>
              </>
            )}
          </main>
        </div>
      </div>
    </UnsavedChangesContext.Provider>
  );
}
