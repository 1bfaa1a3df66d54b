/**
 * The entry records of lib/notes (one key per account, the version inside the value), read from
 * what each released version stored (tests/fixtures/notes/v<N>.json): the value must come out in
 * the current shape, never silently replaced by "no notes". When NOTES_VERSION is bumped, this
 * fails until a fixture of the new version is added and the older ones still read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import * as z from 'zod';
import { EMPTY_NOTES, notes } from '@/lib/notes';
import { NOTES_VERSION } from '@/lib/notes/entries';
import { testAccount } from '../account-ids';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'notes');
const fixtureSchema = z.object({
  about: z.string(),
  version: z.number().int().min(1),
  stored: z.unknown(),
  expected: z.unknown(),
});
const fixtures = readdirSync(FIXTURES)
  .filter((name) => /^v\d+\.json$/.test(name))
  .map((name) => ({
    file: name,
    ...fixtureSchema.parse(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'))),
  }));

const ACCOUNT = testAccount('A').id;
const storeRaw = (value: unknown) => fakeBrowser.storage.local.set({ [`listNotes:${ACCOUNT}`]: value });

beforeEach(() => fakeBrowser.reset());

describe('entry records: every stored version reads in the current shape', () => {
  it('has a fixture for each version', () => {
    expect(fixtures.map((fixture) => fixture.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: NOTES_VERSION }, (_, index) => index + 1),
    );
  });

  it.each(fixtures.map((fixture) => [fixture.file, fixture] as const))('%s', async (_file, fixture) => {
    await storeRaw(fixture.stored);
    const read = await notes.read(ACCOUNT);
    expect(read).toEqual(fixture.expected);
    expect(read).not.toEqual(EMPTY_NOTES);
  });

  it('damaged values, and a version this release does not know, read as no notes without throwing', async () => {
    for (const damaged of [
      { unexpected: true },
      42,
      [1, 2, 3],
      null,
      { v: 1, entries: [{ domain: 'x' }] },
      { v: NOTES_VERSION + 1, entries: [] },
    ]) {
      await storeRaw(damaged);
      expect(await notes.read(ACCOUNT)).toEqual(EMPTY_NOTES);
    }
  });

  it('a damaged value is replaced, not merged into, by the next write', async () => {
    await storeRaw({ v: 1, entries: 'broken' });
    await notes.setNote(ACCOUNT, { scope: 'A:default', list: 'whitelist', domain: 'a.example' }, 'kept');
    expect((await notes.read(ACCOUNT)).entries).toMatchObject([{ domain: 'a.example', note: 'kept' }]);
  });
});
