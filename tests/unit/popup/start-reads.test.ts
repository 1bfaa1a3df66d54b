import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { fingerprintOfKey } from '@/lib/account/key-fingerprint';
import { readStartSettings } from '@/lib/popup/start-reads';
import {
  apiKeyItem,
  apiTimeoutForTestsItem,
  chosenProfileItem,
  connectionItem,
} from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());

describe('the settings the popup reads as it opens', () => {
  it('come by name, in one storage round trip', async () => {
    await apiKeyItem.setValue('k');
    await connectionItem.setValue({ baseUrl: 'http://127.0.0.1:9', form: 'A' });
    await chosenProfileItem.setValue('kids1');
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    const settings = await readStartSettings();
    expect(await settings.key).toBe('k');
    expect(settings.keyFingerprint).toBe(fingerprintOfKey('k'));
    expect(settings).toMatchObject({
      connection: { baseUrl: 'http://127.0.0.1:9', form: 'A' },
      chosenProfile: 'kids1',
      outbox: [],
      settled: [],
    });
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('leave out the test-only time limit in every build but the fault tests’ one', async () => {
    await apiTimeoutForTestsItem.setValue(2000);
    const get = vi.spyOn(fakeBrowser.storage.local, 'get');
    expect((await readStartSettings()).timeoutMs).toBeNull();
    expect(JSON.stringify(get.mock.calls)).not.toContain('testOnlyApiTimeoutMs');
  });
});
