import { useId } from 'preact/hooks';
import { t, tParts } from '@/lib/i18n';
import { managedProfileItem } from '@/lib/settings/storage';
import { FailureNotice } from '../StatusMessage';
import { useRemoteData } from '../useRemoteData';
import { useStoredState } from '../useStoredValue';
import { AccountContext, type AccountServices, accountScope } from './account-context';
import { CategoriesSection } from './CategoriesSection';
import { DefaultBlockSection } from './DefaultBlockSection';
import { DomainListSections } from './DomainListSections';
import { ManagedSection } from './ManagedSection';
import { NetworksSection } from './NetworksSection';
import { Pane } from './Pane';
import { ProfilesSection } from './ProfilesSection';
import { TldSection } from './TldSection';

/** The views of the options page that show account sections (lib/options/routes.ts). */
export type AccountView = 'filtering' | 'profiles' | 'networks';

/**
 * Every account action of the API, one section each, acting on the profile chosen at the top
 * (Form A) or on the whole account (Form B). Takes the client as a dependency so tests can pass
 * a fake one. With `view`, only that view's sections are shown (the others are kept once shown);
 * without, all of them.
 */
export function AccountManagement({ view, ...services }: AccountServices & { view?: AccountView }) {
  const { client } = services;
  const shows = (which: AccountView) => view === undefined || view === which;
  const profilesData = useRemoteData(
    async (signal) => {
      const profiles = await client.listProfiles({ signal });
      void Promise.resolve(services.onProfilesListed?.(profiles)).catch(() => undefined);
      return profiles;
    },
    [client],
  );
  const [chosen, setChosen] = useStoredState(managedProfileItem, null, 'default');
  const pickerId = useId();

  const loaded = profilesData.data;
  if (chosen === null || (loaded.state === 'loading' && loaded.data === undefined)) {
    return (
      <p class="account-loading" role="status">
        {t('options.account.loading')}
      </p>
    );
  }
  if (loaded.data === undefined) {
    return (
      <div class="account-error">
        <FailureNotice
          alert
          message={loaded.state === 'failed' ? loaded.message : ''}
          advice={loaded.state === 'failed' ? loaded.advice : undefined}
        >
          <button type="button" onClick={profilesData.reload}>
            {t('common.tryAgain')}
          </button>
        </FailureNotice>
      </div>
    );
  }

  const profiles = loaded.data;
  // A remembered profile deleted elsewhere falls back to the one that always exists.
  const profile = profiles.includes(chosen) ? chosen : 'default';
  const choose = (name: string) => {
    setChosen(name);
    void managedProfileItem.setValue(name).catch(() => undefined);
  };
  const account = accountScope(services, profile, profiles);

  return (
    <AccountContext.Provider value={account}>
      <div class="account">
        <Pane shown={shows('profiles')}>
          <ManagedSection id="profiles">
            <ProfilesSection
              profiles={profiles}
              chosen={profile}
              refreshing={loaded.state === 'loading'}
              onChanged={profilesData.reload}
              onChoose={choose}
            />
          </ManagedSection>
        </Pane>
        {/* The pane bounds the sticky profile bar to the sections it applies to. */}
        <Pane shown={shows('filtering')}>
          <div class="scope-bar">
            {account.capabilities.profileSelection ? (
              <div class="inline">
                <label for={pickerId}>{t('options.account.profile')}</label>
                <select id={pickerId} value={profile} onChange={(event) => choose(event.currentTarget.value)}>
                  {profiles.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
                <span class="hint">{t('options.account.profileHint')}</span>
              </div>
            ) : (
              <p>
                {tParts('options.account.wholeAccountNote', {
                  wholeAccount: <strong>{t('options.account.wholeAccount')}</strong>,
                })}
              </p>
            )}
          </div>
          <ManagedSection id="categories">
            <CategoriesSection />
          </ManagedSection>
          <DomainListSections />
          <ManagedSection id="tlds">
            <TldSection />
          </ManagedSection>
          <ManagedSection id="default-block">
            <DefaultBlockSection />
          </ManagedSection>
        </Pane>
        <Pane shown={shows('networks')}>
          <ManagedSection id="networks">
            <NetworksSection />
          </ManagedSection>
        </Pane>
      </div>
    </AccountContext.Provider>
  );
}
