/**
 * While locked, the worker refuses the changes a person asks for (a page that did not ask for the
 * passphrase first), the right-click menu and shortcuts notify instead of acting, and the idle
 * alarm locks after the chosen time (docs/lock.md).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { onStorageChanged } from '@/entrypoints/background/handlers';
import { refuseChangesWhileLocked, unlessLocked } from '@/lib/lock/guard';
import { ensureIdleAlarm, LOCK_IDLE_ALARM, onIdleAlarm } from '@/lib/lock/idle';
import { LOCK_RECORD_NAME } from '@/lib/lock/sealed-storage';
import { isLocked, turnOnLock } from '@/lib/lock/state';
import { createMessageListener, createRequestHandlers } from '@/lib/messaging/handlers';
import { apiKeyItem } from '@/lib/settings/storage';
import { fakeWorkerJobs } from '../../fakes/fake-worker-jobs';

beforeEach(() => fakeBrowser.reset());

const ACCOUNT = 'home-account-0001';
const jobs = fakeWorkerJobs();
const POPUP = { id: fakeBrowser.runtime.id, url: `${fakeBrowser.runtime.getURL('/')}popup.html` };
const whitelist = {
  type: 'submit-change',
  change: { op: 'add', list: 'whitelist', domain: 'example.com', profile: 'default', source: 'popup' },
  accountId: ACCOUNT,
};

describe('changes asked for while locked', () => {
  it('are refused without starting a job, and go through once unlocked', async () => {
    let locked = true;
    const onMessage = createMessageListener(
      refuseChangesWhileLocked(createRequestHandlers(jobs), async () => locked),
      fakeBrowser.runtime,
    );
    expect(await onMessage(whitelist, POPUP)).toEqual({
      state: 'failed',
      message: expect.stringMatching(/^Locked/),
    });
    expect(jobs.submit).not.toHaveBeenCalled();
    locked = false;
    expect(await onMessage(whitelist, POPUP)).toEqual({ state: 'delivered', message: 'ok' });
    expect(jobs.submit).toHaveBeenCalledTimes(1);
  });

  it('a change to several profiles is refused for each profile, none queued', async () => {
    const onMessage = createMessageListener(
      refuseChangesWhileLocked(createRequestHandlers(jobs), async () => true),
      fakeBrowser.runtime,
    );
    const answer = await onMessage(
      {
        type: 'submit-to-profiles',
        change: { ...whitelist.change, profile: undefined },
        profiles: ['default', 'kids'],
        accountId: ACCOUNT,
      },
      POPUP,
    );
    expect(answer).toEqual({
      outcomes: ['default', 'kids'].map((profile) => ({
        profile,
        state: 'failed',
        message: expect.stringMatching(/^Locked/),
      })),
    });
    expect(jobs.submitToProfiles).not.toHaveBeenCalled();
  });

  it('from the menu or a shortcut, notify and change nothing', async () => {
    const notify = vi.fn(async () => {});
    const act = vi.fn(async () => {});
    await unlessLocked(async () => true, notify, act);
    expect(act).not.toHaveBeenCalled();
    expect(notify).toHaveBeenCalledWith('Locked', expect.stringContaining('passphrase'));
    await unlessLocked(async () => false, notify, act);
    expect(act).toHaveBeenCalledTimes(1);
  });
});

describe('the idle alarm', () => {
  it('starts when the lock is turned on, from the change of its record', async () => {
    await apiKeyItem.setValue('home-key-0123456789abcdef');
    // Turning on writes the session's keys first: that change found no lock record yet.
    await turnOnLock({ passphrase: 'correct horse battery staple', idleMinutes: 1, background: {} });
    await fakeBrowser.alarms.clearAll();
    await onStorageChanged({ [LOCK_RECORD_NAME]: { newValue: {} } }, 'local');
    expect(await fakeBrowser.alarms.get(LOCK_IDLE_ALARM)).toBeDefined();
  });

  it('is created once while unlocked, locks after the idle time and then goes', async () => {
    await apiKeyItem.setValue('home-key-0123456789abcdef');
    const t0 = Date.now();
    await turnOnLock({ passphrase: 'correct horse battery staple', idleMinutes: 1, background: {} }, t0);
    const create = vi.spyOn(fakeBrowser.alarms, 'create');
    await ensureIdleAlarm(fakeBrowser.alarms);
    await ensureIdleAlarm(fakeBrowser.alarms);
    expect(create).toHaveBeenCalledTimes(1);
    expect(await fakeBrowser.alarms.get(LOCK_IDLE_ALARM)).toBeDefined();

    await onIdleAlarm(fakeBrowser.alarms, async () => null, t0 + 30_000);
    expect(await isLocked()).toBe(false);
    await onIdleAlarm(fakeBrowser.alarms, async () => null, t0 + 61_000);
    expect(await isLocked()).toBe(true);
    expect(await apiKeyItem.getValue()).toBe('');
    expect(await fakeBrowser.alarms.get(LOCK_IDLE_ALARM)).toBeUndefined();
  });
});
