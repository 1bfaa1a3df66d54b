import { describe, expect, it } from 'vitest';
import {
  accountIdentity,
  identityForLegacyTag,
  identityOf,
  keyFingerprint,
  NO_KEY,
  parseAccountId,
} from '@/lib/identity/identity';
import { accountIdSchema } from '@/lib/settings/schemas';
import { fingerprintOf } from '../account-ids';

const connection = { baseUrl: 'https://my.cleanbrowsing.org', form: 'A' as const };

describe('account identity', () => {
  it('is the origin, the form and 16 hex digits of the key’s SHA-256, never the key', async () => {
    const key = 'secret-key-0123456789';
    const identity = await accountIdentity({ key, connection });
    expect(identity).toEqual({
      id: `A https://my.cleanbrowsing.org ${fingerprintOf(key)}`,
      origin: 'https://my.cleanbrowsing.org',
      form: 'A',
      keyFingerprint: fingerprintOf(key),
    });
    expect(identity.keyFingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(identity)).not.toContain(key);
    expect(accountIdSchema.safeParse(identity.id).success).toBe(true);
  });

  it('changes with the key, the origin and the form; not with a trailing slash', async () => {
    const ids = await Promise.all([
      accountIdentity({ key: 'k1', connection }),
      accountIdentity({ key: 'k2', connection }),
      accountIdentity({ key: 'k1', connection: { ...connection, form: 'B' } }),
      accountIdentity({ key: 'k1', connection: { ...connection, baseUrl: 'http://127.0.0.1:8787' } }),
    ]);
    expect(new Set(ids.map((identity) => identity.id)).size).toBe(4);
    const slashed = await accountIdentity({
      key: 'k1',
      connection: { ...connection, baseUrl: `${connection.baseUrl}/` },
    });
    expect(slashed.id).toBe(ids[0]?.id);
  });

  it('has a "no key" identity while no key is set', async () => {
    expect(await keyFingerprint('')).toBe(NO_KEY);
    expect((await accountIdentity({ key: '', connection })).id).toBe('A https://my.cleanbrowsing.org no-key');
  });

  it('reads back what it wrote, and nothing else', () => {
    const identity = identityOf({
      origin: 'http://127.0.0.1:8787',
      form: 'B',
      keyFingerprint: '0123456789abcdef',
    });
    expect(parseAccountId(identity.id)).toEqual(identity);
    for (const bad of ['A https://my.cleanbrowsing.org', 'C x 0123456789abcdef', 'A x 0123', '']) {
      expect(parseAccountId(bad)).toBeNull();
      expect(accountIdSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('gives a tag from before identities the configured account only when it names that connection', () => {
    const current = identityOf({ origin: connection.baseUrl, form: 'A', keyFingerprint: '0123456789abcdef' });
    expect(identityForLegacyTag('A https://my.cleanbrowsing.org', current)).toBe(current.id);
    expect(identityForLegacyTag('B https://my.cleanbrowsing.org', current)).toBe(
      'B https://my.cleanbrowsing.org unknown-key',
    );
    expect(identityForLegacyTag('A https://other.example', current)).toBe(
      'A https://other.example unknown-key',
    );
    expect(identityForLegacyTag('nonsense', current)).toBe('A https://my.cleanbrowsing.org unknown-key');
  });
});
