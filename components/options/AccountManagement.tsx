import { useEffect, useId, useState } from 'preact/hooks';
import { managedProfileItem } from '@/lib/settings/storage';
import { useRemoteData } from '../useRemoteData';
import { AccountContext, type AccountServices, accountScope } from './account-context';
import { CategoriesSection } from './CategoriesSection';
import { DefaultBlockSection } from './DefaultBlockSection';
import { DomainListSections } from './DomainListSections';
import { NetworksSection } from './NetworksSection';
import { ProfilesSection } from './ProfilesSection';
import { TldSection } from './TldSection';

/**
 * Every account action of the API, one section each, acting on the profile chosen at the top
 * (Form A) or on the whole account (Form B). Takes the client as a dependency so tests can pass
 * a fake one.
 */
export function AccountManagement(services: AccountServices) {
  const { client } = services;
  const profilesData = useRemoteData(
    async (signal) => {
      const profiles = await client.listProfiles({ signal });
      void Promise.resolve(services.onProfilesListed?.(profiles)).catch(() => undefined);
      return profiles;
    },
    [client],
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const pickerId = useId();

  useEffect(() => {
    void managedProfileItem.getValue().then(setChosen, () => setChosen('default'));
  }, []);

  const loaded = profilesData.data;
  if (chosen === null || (loaded.state === 'loading' && loaded.data === undefined)) {
    return (
      <p class="account-loading" role="status">
        Loading your account…
      </p>
    );
  }
  if (loaded.data === undefined) {
    return (
      <div class="account-error">
        <p role="alert">Could not open your account: {loaded.state === 'failed' ? loaded.message : ''}</p>
        <p class="hint">Check the key and the API form in Setup, then try again.</p>
        <button type="button" onClick={profilesData.reload}>
          Try again
        </button>
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
      {/* The wrapper bounds the sticky profile bar to the sections it applies to. */}
      <div class="account">
        <div class="scope-bar">
          {account.form === 'A' ? (
            <div class="inline">
              <label for={pickerId}>Profile</label>
              <select id={pickerId} value={profile} onChange={(event) => choose(event.currentTarget.value)}>
                {profiles.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
              <span class="hint">
                Categories, lists, top-level domains and default block below act on this profile.
              </span>
            </div>
          ) : (
            <p>
              <strong>Whole account</strong>: this API form (Form B) has no profile selection, so categories,
              lists, top-level domains and default block apply to the whole account.
            </p>
          )}
        </div>
        <ProfilesSection
          profiles={profiles}
          chosen={profile}
          refreshing={loaded.state === 'loading'}
          onChanged={profilesData.reload}
          onChoose={choose}
        />
        <CategoriesSection />
        <DomainListSections />
        <TldSection />
        <DefaultBlockSection />
        <NetworksSection />
      </div>
    </AccountContext.Provider>
  );
}
