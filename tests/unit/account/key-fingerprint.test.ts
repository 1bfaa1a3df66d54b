import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '@/lib/account/identity';
import { fingerprintOfKey, STORED_API_KEY } from '@/lib/account/key-fingerprint';
import { apiKeyItem } from '@/lib/settings/storage';

const nodeFingerprint = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 16);

describe('the key fingerprint, computed once per page', () => {
  it('is the first 16 hex digits of the key’s SHA-256, for whichever key is asked, in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, unit: 'grapheme' }), { minLength: 1, maxLength: 5 }),
        (keys) => {
          const page = {};
          for (const key of [...keys, ...keys.reverse()])
            expect(fingerprintOfKey(key, page)).toBe(nodeFingerprint(key));
        },
      ),
    );
  });

  it('is what the account identity uses, also when the first script hashed the key already', async () => {
    const key = 'first-script-key';
    fingerprintOfKey(key);
    expect(await keyFingerprint(key)).toBe(nodeFingerprint(key));
    expect(await keyFingerprint('another-key')).toBe(nodeFingerprint('another-key'));
  });

  it('is not kept in the worker’s globals (no document there)', () => {
    const worker = {};
    expect(fingerprintOfKey('worker-key', worker, false)).toBe(nodeFingerprint('worker-key'));
    expect(Object.getOwnPropertyNames(worker)).toEqual([]);
  });

  it('is started by the popup’s first script from the key stored where the settings keep it', () => {
    expect(apiKeyItem.key).toBe(`local:${STORED_API_KEY}`);
  });
});
