/**
 * Every storage item of lib/settings/storage.ts, read from what each released version of its
 * shape stored (tests/fixtures/storage/<key>/v<N>.json): once the worker has migrated stored values
 * (lib/settings/migrate.ts, at install and update), the value must read in the current shape, never
 * silently replaced by the fallback.
 *
 * When an item's version is bumped, this test fails until a fixture of the new version is added
 * (and the old fixtures keep proving the migration). When an item is added, likewise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import * as z from 'zod';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'storage');

const fixtureSchema = z.object({
  /** The export of lib/settings/storage.ts. */
  item: z.string(),
  /** Area and key, as the item names it. */
  key: z.string().regex(/^(local|session|sync|managed):.+$/),
  /** The version of the item's shape that stored `stored`. */
  version: z.number().int().min(1),
  about: z.string(),
  /**
   * Other items stored when the migration ran, by area and key (`local:apiKey`): migrations that
   * give old values the account identity of the connection stored then read them.
   */
  alsoStored: z.record(z.string().regex(/^(local|session):.+$/), z.unknown()).optional(),
  stored: z.unknown(),
  expected: z.unknown(),
});
type Fixture = z.infer<typeof fixtureSchema>;

const fixtures: (Fixture & { file: string })[] = readdirSync(FIXTURES).flatMap((folder) =>
  readdirSync(join(FIXTURES, folder))
    .filter((name) => /^v\d+\.json$/.test(name))
    .map((name) => ({
      ...fixtureSchema.parse(JSON.parse(readFileSync(join(FIXTURES, folder, name), 'utf8'))),
      file: `${folder}/${name}`,
    })),
);

type StorageModule = typeof import('@/lib/settings/storage') & {
  cachedListsItem: typeof import('@/lib/cache/cached-lists').cachedListsItem;
  /** Kept in its own room (lib/profile-groups), stored like the others. */
  profileGroupsItem: typeof import('@/lib/profile-groups/groups').profileGroupsItem;
  migrateStoredValues: typeof import('@/lib/settings/migrate').migrateStoredValues;
};
interface ReadableItem {
  key: string;
  fallback?: unknown;
  version?: number;
  getValue(): Promise<unknown>;
}

/**
 * Per-scope (and per-tab) items are functions of the scope; their fixtures name one scope's key.
 * They are without WXT's version record: `version` counts the shapes they have stored, and an
 * older shape of a cache may read as a miss (null), since the popup then fetches again.
 */
const SCOPED_ITEMS: Record<
  string,
  { version: number; forKey: (m: StorageModule, key: string) => ReadableItem }
> = {
  cachedListsItem: {
    version: 4,
    forKey: (m, key) => m.cachedListsItem(key.replace(/^local:cachedLists:/, '')),
  },
  failedHostsOfTabItem: {
    version: 1,
    forKey: (m, key) => m.failedHostsOfTabItem(Number(key.replace(/^session:failedHosts:/, ''))),
  },
};

function storedItems(m: StorageModule): Map<string, ReadableItem> {
  const items = new Map<string, ReadableItem>();
  for (const [name, value] of Object.entries(m)) {
    if (name === 'cachedListsItem') continue;
    const candidate = value as Partial<ReadableItem> | null;
    if (
      candidate !== null &&
      typeof candidate === 'object' &&
      typeof candidate.key === 'string' &&
      typeof candidate.getValue === 'function'
    )
      items.set(name, candidate as ReadableItem);
  }
  return items;
}

/** storage.ts loaded afresh, with the worker's migrations and the cached lists' item. */
async function freshStorageModule(): Promise<StorageModule> {
  vi.resetModules();
  const [storage, { cachedListsItem }, { migrateStoredValues }, { profileGroupsItem }] = await Promise.all([
    import('@/lib/settings/storage'),
    import('@/lib/cache/cached-lists'),
    import('@/lib/settings/migrate'),
    import('@/lib/profile-groups/groups'),
  ]);
  return { ...storage, cachedListsItem, migrateStoredValues, profileGroupsItem };
}

function areaOf(key: string) {
  const [area, ...rest] = key.split(':');
  return { area: area as 'local' | 'session', name: rest.join(':') };
}

beforeEach(() => {
  fakeBrowser.reset();
});

describe('fixtures cover every stored item and version', async () => {
  const m = await freshStorageModule();
  const items = storedItems(m);

  it('finds the items and the fixtures', () => {
    expect(items.size).toBeGreaterThan(15);
    expect(fixtures.length).toBeGreaterThanOrEqual(items.size);
  });

  it.each([...items.entries()].map(([name, item]) => [name, item] as const))(
    '%s has a fixture for each of its versions',
    (name, item) => {
      const version = item.version ?? 1;
      const versions = fixtures.filter((fixture) => fixture.item === name).map((fixture) => fixture.version);
      expect(versions.sort((a, b) => a - b)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
      for (const fixture of fixtures.filter((f) => f.item === name)) expect(fixture.key).toBe(item.key);
    },
  );

  it.each(Object.entries(SCOPED_ITEMS))(
    '%s (per scope) has a fixture for each of its versions',
    (name, scoped) => {
      const versions = fixtures.filter((fixture) => fixture.item === name).map((fixture) => fixture.version);
      expect(versions.sort((a, b) => a - b)).toEqual(Array.from({ length: scoped.version }, (_, i) => i + 1));
    },
  );

  it('every item with migrations is one the worker migrates (ITEMS_WITH_MIGRATIONS)', () => {
    const migrating = [...items.entries()].filter(([, item]) => 'migrations' in item);
    expect(migrating.length).toBeGreaterThan(0);
    for (const [name, item] of migrating)
      expect([name, m.ITEMS_WITH_MIGRATIONS.some((listed) => listed.key === item.key)]).toEqual([name, true]);
  });

  it('every fixture belongs to an item that exists', () => {
    const known = new Set([...items.keys(), ...Object.keys(SCOPED_ITEMS)]);
    expect(fixtures.filter((fixture) => !known.has(fixture.item)).map((fixture) => fixture.file)).toEqual([]);
  });
});

describe('each stored version is read back in the current shape', () => {
  it.each(fixtures.map((fixture) => [fixture.file, fixture] as const))('%s', async (_file, fixture) => {
    const { area, name } = areaOf(fixture.key);
    for (const [key, value] of Object.entries(fixture.alsoStored ?? {})) {
      const other = areaOf(key);
      await fakeBrowser.storage[other.area].set({ [other.name]: value });
    }
    // Version 1 stored no version record; later versions have the one WXT writes after migrating.
    await fakeBrowser.storage[area].set({
      [name]: fixture.stored,
      ...(!(fixture.item in SCOPED_ITEMS) && fixture.version > 1
        ? { [`${name}$`]: { v: fixture.version } }
        : {}),
    });
    const m = await freshStorageModule();
    const item = SCOPED_ITEMS[fixture.item]?.forKey(m, fixture.key) ?? storedItems(m).get(fixture.item);
    if (!item) throw new Error(`${fixture.item} is not exported by lib/settings/storage.ts`);
    expect(item.key).toBe(fixture.key);

    await m.migrateStoredValues();
    const value = await item.getValue();

    expect(value).toEqual(fixture.expected);
    // A value the schema refused would read as the fallback: the fixture must prove more than that.
    if ('fallback' in item) expect(value).not.toEqual(item.fallback);
  });
});

describe('what no version of the extension wrote', () => {
  it.each(
    fixtures.filter((fixture) => fixture.version === 1).map((fixture) => [fixture.item, fixture] as const),
  )('%s: damaged values read as the fallback, without throwing', async (_item, fixture) => {
    const { area, name } = areaOf(fixture.key);
    const m = await freshStorageModule();
    const item = SCOPED_ITEMS[fixture.item]?.forKey(m, fixture.key) ?? storedItems(m).get(fixture.item);
    if (!item) throw new Error(`${fixture.item} missing`);
    for (const damaged of [{ unexpected: true }, 42, [1, 2, 3], null]) {
      await fakeBrowser.storage[area].set({ [name]: damaged });
      const value = await item.getValue();
      if ('fallback' in item) expect(value).toEqual(item.fallback);
      else expect(value).toBeNull();
    }
  });
});
