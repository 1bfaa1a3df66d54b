import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { keyFingerprint, NO_KEY } from '@/lib/identity/identity';
import { readStartSettings } from '@/lib/popup/start-reads';
import {
  apiKeyItem,
  apiTimeoutForTestsItem,
  chosenProfileItem,
  connectionItem,
} from '@/lib/settings/storage';
import { fingerprintOf } from '../account-ids';

beforeEach(() => fakeBrowser.reset());

describe('the settings the popup reads as it opens', () => {
  it('come by name, in one storage round trip, with the key’s fingerprint and without the key', async () => {
    await apiKeyItem.setValue('k');
    await connectionItem.setValue({ baseUrl: 'http://127.0.0.1:9', form: 'A' });
    await chosenProfileItem.setValue('kids1');
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    const settings = await readStartSettings();
    expect(settings.keyFingerprint).toBe(fingerprintOf('k'));
    expect(settings).toMatchObject({
      connection: { baseUrl: 'http://127.0.0.1:9', form: 'A' },
      chosenProfile: 'kids1',
      outbox: [],
      settled: [],
    });
    expect(get).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(get.mock.calls)).not.toContain('"apiKey"');
    // The key itself is read when the service is to be called.
    expect(await settings.key()).toBe('k');
  });

  it('work the fingerprint out from the key when it was stored before fingerprints were kept', async () => {
    await fakeBrowser.storage.local.set({ apiKey: 'old-key' });
    expect((await readStartSettings()).keyFingerprint).toBe(await keyFingerprint('old-key'));
  });

  it('name no account while no key is set', async () => {
    expect((await readStartSettings()).keyFingerprint).toBe(NO_KEY);
  });

  it('leave out the test-only time limit in every build but the fault tests’ one', async () => {
    await apiTimeoutForTestsItem.setValue(2000);
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    expect((await readStartSettings()).timeoutMs).toBeNull();
    expect(JSON.stringify(get.mock.calls)).not.toContain('testOnlyApiTimeoutMs');
  });
});
