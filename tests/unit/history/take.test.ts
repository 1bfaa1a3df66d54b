import { describe, expect, it } from 'vitest';
import { sectionKey } from '@/lib/history/model';
import { takeSnapshot } from '@/lib/history/take';
import { createFakeClient } from '../../fakes/fake-client';

describe('taking a snapshot', () => {
  it("holds every profile's lists, blocked categories and networks, and what this browser set of TLDs and default block", async () => {
    const client = createFakeClient('A', {
      profiles: ['default', 'kids'],
      blocked: { kids: new Set(['category_adult']) },
      lists: {
        whitelist: { default: new Set(['b.com', 'a.com']), kids: new Set() },
        blocklist: { default: new Set(), kids: new Set(['games.example']) },
      },
      networks: [{ ip: '203.0.113.7', profile: 'kids' }],
    });
    const snapshot = await takeSnapshot(
      client,
      { tlds: { 'A:kids': ['.zip'], 'B:account': ['.xyz'] }, defaultBlock: { 'A:kids': { enabled: true } } },
      'manual',
      () => 42,
    );
    expect(snapshot.takenAt).toBe(42);
    expect(snapshot.sections).toMatchObject({
      [sectionKey('profiles', '')]: ['default', 'kids'],
      [sectionKey('whitelist', 'default')]: ['a.com', 'b.com'],
      [sectionKey('blocklist', 'kids')]: ['games.example'],
      [sectionKey('categories', 'kids')]: ['category_adult'],
      [sectionKey('networks', 'kids')]: ['203.0.113.7'],
      [sectionKey('networks', 'default')]: [],
      [sectionKey('tlds', 'kids')]: ['.zip'],
      [sectionKey('defaultBlock', 'kids')]: ['on'],
    });
    // Another form's records and what this browser never set are unknown, not empty.
    expect(snapshot.sections).not.toHaveProperty(sectionKey('tlds', 'account'));
    expect(snapshot.sections).not.toHaveProperty(sectionKey('defaultBlock', 'default'));
  });

  it("takes Form B's whole account as one scope, with its network labels", async () => {
    const client = createFakeClient('B', {
      lists: { whitelist: { account: new Set(['a.com']) }, blocklist: { account: new Set() } },
      networks: [{ ip: '198.51.100.1', label: 'home' }],
    });
    const snapshot = await takeSnapshot(client, { tlds: {}, defaultBlock: {} }, 'daily');
    expect(snapshot.sections[sectionKey('whitelist', 'account')]).toEqual(['a.com']);
    expect(snapshot.sections[sectionKey('networks', 'account')]).toEqual(['198.51.100.1 home']);
    expect(snapshot.sections).not.toHaveProperty(sectionKey('profiles', ''));
  });
});
