import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { networkRows } from '@/lib/account/networks';
import { ApiError } from '@/lib/api/errors';
import { validateIpv4, validateNetworkLabel } from '@/lib/validation';
import { useConfirm } from '../ConfirmDialog';
import { StatusMessage } from '../StatusMessage';
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
  const { client, form, profile, profiles, lookupPublicIp, lookUpPublicIpAtOnce } = useAccount();
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
  // Form A lists one address under several profiles; the profile then tells the rows apart.
  const showProfileInName = form === 'A' && profiles.length > 1;

  const add = async () => {
    const done = await run(
      `Adding network ${ip.trim()}…`,
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
          ...(form === 'A' ? { profile: newNetworkProfile } : {}),
        };
        await client.addNetwork(entry);
        return entry;
      },
      (entry) =>
        `Added network ${entry.ip}${entry.label ? ` (${entry.label})` : ''}${
          entry.profile ? ` with profile ${entry.profile}` : ''
        }.`,
    );
    if (done !== undefined) {
      setIp('');
      setLabel('');
      networks.reload();
    }
  };

  const remove = async (entry: { ip: string; profile?: string }) => {
    const confirmed = await confirm({
      title: `Remove network ${entry.ip}?`,
      message: (
        <p>
          The address {entry.ip} is no longer registered with your account
          {entry.profile && form === 'A' ? ` under profile ${entry.profile}` : ''}, so its traffic may no
          longer be filtered as you set it up.
        </p>
      ),
      confirmLabel: 'Remove',
    });
    if (!confirmed) return;
    const done = await run(
      `Removing network ${entry.ip}…`,
      async () => {
        await client.deleteNetwork(form === 'A' ? entry : { ip: entry.ip });
        return true;
      },
      () => `Removed network ${entry.ip}.`,
    );
    if (done) networks.reload();
  };

  const ipNote =
    currentIp.state === 'found'
      ? `This browser's public address is ${currentIp.ip}.`
      : currentIp.state === 'looking'
        ? "Looking up this browser's public address…"
        : currentIp.state === 'failed'
          ? `This browser's network cannot be marked: ${currentIp.message}`
          : null;

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Networks</h2>
      <p class="hint">
        The public IPv4 addresses registered with your account: traffic from them is filtered with their
        profile.
      </p>
      {ipNote ? <p class="ip-note">{ipNote}</p> : null}
      {findCurrentIp && (currentIp.state === 'unknown' || currentIp.state === 'failed') ? (
        <p class="hint">
          <button type="button" onClick={findCurrentIp}>
            Find this browser's address
          </button>{' '}
          Asks the IP lookup services of the Dynamic IP section, to mark this browser's network below.
        </p>
      ) : null}
      {networks.data.state === 'failed' ? (
        <div class="load-failed">
          <p>Could not load the networks: {networks.data.message}</p>
          <button type="button" onClick={networks.reload}>
            Load the networks again
          </button>
        </div>
      ) : networks.data.data === undefined ? (
        <p class="hint">Loading the networks…</p>
      ) : rows.length === 0 ? (
        <p class="hint">No network is registered yet.</p>
      ) : (
        <table class="networks">
          <caption>Registered networks</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Label</th>
              <th scope="col">Profile</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} class={row.isThisBrowser ? 'this-browser' : undefined}>
                <td>
                  {row.ip}
                  {row.isThisBrowser ? <strong class="badge"> this browser</strong> : null}
                </td>
                <td>{row.label ?? '—'}</td>
                <td>{row.profile ?? '—'}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Remove network ${row.ip}${showProfileInName && row.profile ? ` (profile ${row.profile})` : ''}`}
                    aria-disabled={busy}
                    onClick={() =>
                      void remove({
                        ip: row.ip,
                        ...(row.profile !== undefined ? { profile: row.profile } : {}),
                      })
                    }
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {form === 'A' && rows.length > 0 ? (
        <p class="hint">This API form does not report network labels.</p>
      ) : null}
      <h3>Add a network</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <div class="field">
          <label for={ipId}>IPv4 address</label>
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
                Use this browser's address
              </button>
            ) : null}
          </div>
        </div>
        <div class="field">
          <label for={labelId}>Label for the new network</label>
          <input
            id={labelId}
            type="text"
            autoComplete="off"
            aria-describedby={labelHintId}
            value={label}
            onInput={(event) => setLabel(event.currentTarget.value)}
          />
          <p class="hint" id={labelHintId}>
            Optional, up to 64 characters, such as Home or Office.
          </p>
        </div>
        {form === 'A' ? (
          <div class="field">
            <label for={profileId}>Profile for the new network</label>
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
          <p class="hint">
            In this API form a new network uses the account's settings (no profile can be chosen).
          </p>
        )}
        <button type="submit" aria-disabled={busy}>
          Add network
        </button>
      </form>
      <StatusMessage status={status} />
      {dialog}
    </section>
  );
}
