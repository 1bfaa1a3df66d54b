import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { ApiError } from '@/lib/api/errors';
import { t } from '@/lib/i18n';
import { networkRows } from '@/lib/lists/networks';
import { validateIpv4, validateNetworkLabel } from '@/lib/validation';
import { useConfirm } from '../ConfirmDialog';
import { FailureNotice, StatusMessage } from '../StatusMessage';
import { failureText, useRemoteAction } from '../useRemoteAction';
import { useRemoteData } from '../useRemoteData';
import { useAccount } from './account-context';

type CurrentIp =
  | { state: 'unknown' }
  | { state: 'looking' }
  | { state: 'found'; ip: string }
  | { state: 'failed'; message: string };

/**
 * This browser's public IPv4 address. The lookup services are third parties: they are asked when
 * the page opens only if `atOnce` (dynamic IP registration is on), otherwise when `find` is called.
 */
function useCurrentIp(
  lookup: ((signal: AbortSignal) => Promise<string>) | undefined,
  atOnce: boolean,
): { current: CurrentIp; find: (() => void) | null } {
  const [current, setCurrent] = useState<CurrentIp>({ state: lookup && atOnce ? 'looking' : 'unknown' });
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (!lookup || (!atOnce && asked === 0)) {
      setCurrent({ state: 'unknown' });
      return;
    }
    const controller = new AbortController();
    setCurrent({ state: 'looking' });
    lookup(controller.signal).then(
      (ip) => {
        if (!controller.signal.aborted) setCurrent({ state: 'found', ip });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setCurrent({ state: 'failed', message: failureText(error) });
      },
    );
    return () => controller.abort();
  }, [lookup, atOnce, asked]);
  return { current, find: lookup ? () => setAsked((count) => count + 1) : null };
}

export function NetworksSection() {
  const { client, capabilities, profile, profiles, lookupPublicIp, lookUpPublicIpAtOnce } = useAccount();
  const { profileSelection } = capabilities;
  const networks = useRemoteData((signal) => client.listNetworks({ signal }), [client]);
  const { current: currentIp, find: findCurrentIp } = useCurrentIp(
    lookupPublicIp,
    lookUpPublicIpAtOnce ?? false,
  );
  const { status, run, busy } = useRemoteAction();
  const { confirm, dialog } = useConfirm();
  const [ip, setIp] = useState('');
  const [label, setLabel] = useState('');
  const [targetProfile, setTargetProfile] = useState(profile ?? 'default');
  const headingId = useId();
  const ipId = useId();
  const labelId = useId();
  const labelHintId = useId();
  const profileId = useId();

  useEffect(() => setTargetProfile(profile ?? 'default'), [profile]);

  // A profile deleted meanwhile is no longer offered; fall back to the one that always exists.
  const newNetworkProfile = profiles.includes(targetProfile) ? targetProfile : 'default';
  const thisIp = currentIp.state === 'found' ? currentIp.ip : null;
  const rows = useMemo(() => networkRows(networks.data.data ?? [], thisIp), [networks.data.data, thisIp]);
  // Per profile, one address can be listed under several profiles; the profile then tells the rows apart.
  const showProfileInName = profileSelection && profiles.length > 1;

  const add = async () => {
    const done = await run(
      t('networks.adding', { ip: ip.trim() }),
      async () => {
        const checkedIp = validateIpv4(ip);
        if (!checkedIp.ok) throw new ApiError('invalid-input', checkedIp.message, { field: 'ip' });
        let checkedLabel: string | undefined;
        if (label.trim() !== '') {
          const result = validateNetworkLabel(label);
          if (!result.ok) throw new ApiError('invalid-input', result.message, { field: 'label' });
          checkedLabel = result.value;
        }
        const entry = {
          ip: checkedIp.value,
          ...(checkedLabel !== undefined ? { label: checkedLabel } : {}),
          ...(profileSelection ? { profile: newNetworkProfile } : {}),
        };
        await client.addNetwork(entry);
        return entry;
      },
      (entry) =>
        entry.label
          ? entry.profile
            ? t('networks.addedLabelProfile', { ip: entry.ip, label: entry.label, profile: entry.profile })
            : t('networks.addedLabel', { ip: entry.ip, label: entry.label })
          : entry.profile
            ? t('networks.addedProfile', { ip: entry.ip, profile: entry.profile })
            : t('networks.added', { ip: entry.ip }),
    );
    if (done !== undefined) {
      setIp('');
      setLabel('');
      networks.reload();
    }
  };

  const remove = async (entry: { ip: string; profile?: string }) => {
    const confirmed = await confirm({
      title: t('networks.confirmTitle', { ip: entry.ip }),
      message: (
        <p>
          {entry.profile && profileSelection
            ? t('networks.confirmTextProfile', { ip: entry.ip, profile: entry.profile })
            : t('networks.confirmText', { ip: entry.ip })}
        </p>
      ),
      confirmLabel: t('networks.remove'),
    });
    if (!confirmed) return;
    const done = await run(
      t('networks.removing', { ip: entry.ip }),
      async () => {
        await client.deleteNetwork(profileSelection ? entry : { ip: entry.ip });
        return true;
      },
      () => t('networks.removed', { ip: entry.ip }),
    );
    if (done) networks.reload();
  };

  const ipNote =
    currentIp.state === 'found'
      ? t('networks.thisIp', { ip: currentIp.ip })
      : currentIp.state === 'looking'
        ? t('networks.lookingUp')
        : currentIp.state === 'failed'
          ? t('networks.cannotMark', { reason: currentIp.message })
          : null;

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('networks.heading')}</h2>
      <p class="hint">{t('networks.about')}</p>
      {ipNote ? <p class="ip-note">{ipNote}</p> : null}
      {findCurrentIp && (currentIp.state === 'unknown' || currentIp.state === 'failed') ? (
        <p class="hint">
          <button type="button" onClick={findCurrentIp}>
            {t('networks.find')}
          </button>{' '}
          {t('networks.findHint')}
        </p>
      ) : null}
      {networks.data.state === 'failed' ? (
        <FailureNotice message={networks.data.message} advice={networks.data.advice}>
          <button type="button" onClick={networks.reload}>
            {t('networks.loadAgain')}
          </button>
        </FailureNotice>
      ) : networks.data.data === undefined ? (
        <p class="hint">{t('networks.loading')}</p>
      ) : rows.length === 0 ? (
        <p class="hint">{t('networks.none')}</p>
      ) : (
        <table class="networks table">
          <caption>{t('networks.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('networks.address')}</th>
              <th scope="col">{t('networks.label')}</th>
              <th scope="col">{t('networks.profile')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('networks.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} class={row.isThisBrowser ? 'this-browser' : undefined}>
                <td>
                  {row.ip}
                  {row.isThisBrowser ? <strong class="badge"> {t('networks.thisBrowser')}</strong> : null}
                </td>
                <td>{row.label ?? '—'}</td>
                <td>{row.profile ?? '—'}</td>
                <td>
                  <button
                    type="button"
                    aria-label={
                      showProfileInName && row.profile
                        ? t('networks.removeNamedProfile', { ip: row.ip, profile: row.profile })
                        : t('networks.removeNamed', { ip: row.ip })
                    }
                    aria-disabled={busy}
                    onClick={() =>
                      void remove({
                        ip: row.ip,
                        ...(row.profile !== undefined ? { profile: row.profile } : {}),
                      })
                    }
                  >
                    {t('networks.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!capabilities.networkLabels && rows.length > 0 ? <p class="hint">{t('networks.noLabels')}</p> : null}
      <h3>{t('networks.addHeading')}</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <div class="field">
          <label for={ipId}>{t('networks.ipv4')}</label>
          <div class="inline">
            <input
              id={ipId}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              spellcheck={false}
              value={ip}
              onInput={(event) => setIp(event.currentTarget.value)}
            />
            {thisIp !== null ? (
              <button type="button" onClick={() => setIp(thisIp)}>
                {t('networks.useThisIp')}
              </button>
            ) : null}
          </div>
        </div>
        <div class="field">
          <label for={labelId}>{t('networks.newLabel')}</label>
          <input
            id={labelId}
            type="text"
            autoComplete="off"
            aria-describedby={labelHintId}
            value={label}
            onInput={(event) => setLabel(event.currentTarget.value)}
          />
          <p class="hint" id={labelHintId}>
            {t('networks.newLabelHint')}
          </p>
        </div>
        {profileSelection ? (
          <div class="field">
            <label for={profileId}>{t('networks.newProfile')}</label>
            <select
              id={profileId}
              value={newNetworkProfile}
              onChange={(event) => setTargetProfile(event.currentTarget.value)}
            >
              {profiles.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p class="hint">{t('networks.formBProfile')}</p>
        )}
        <button type="submit" aria-disabled={busy}>
          {t('networks.add')}
        </button>
      </form>
      <StatusMessage status={status} />
      {dialog}
    </section>
  );
}
