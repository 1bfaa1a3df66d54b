/**
 * Firefox's start copies (lib/settings/start-copies.ts): the popup's first script reads copies of
 * its start values from storage.session, and storage only for a name without one; every write of
 * a name through the product forgets its copy, so no opening shows a value storage no longer holds.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { copyName, readThroughCopies } from '@/lib/settings/start-copies';
import { connectionItem, defaultBlockItem } from '@/lib/settings/storage';

const session = () => fakeBrowser.storage.session;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A popup opening's first reads, as Firefox's first script makes them; `reads` counts storage's. */
function opening(reads: string[][]) {
  return readThroughCopies(session(), ['connection', 'defaultBlock'], (names) => {
    reads.push(names);
    return fakeBrowser.storage.local.get(names);
  });
}

beforeEach(() => {
  fakeBrowser.reset();
  vi.stubEnv('BROWSER', 'firefox');
});
afterEach(() => vi.unstubAllEnvs());

describe('Firefox’s start copies', () => {
  it('let the next opening read no storage, absent values included', async () => {
    await connectionItem.setValue({ baseUrl: 'https://dns.example', form: 'B' });
    const reads: string[][] = [];
    const first = await opening(reads);
    await settle();
    const second = await opening(reads);
    expect(second).toEqual(first);
    expect(second).toEqual({ connection: { baseUrl: 'https://dns.example', form: 'B' } });
    // The first opening read storage once, and again to check its copy; the second, never.
    expect(reads).toEqual([
      ['connection', 'defaultBlock'],
      ['connection', 'defaultBlock'],
    ]);
  });

  it('never show a value changed since they were made: each write forgets its copy', async () => {
    await connectionItem.setValue({ baseUrl: 'https://old.example', form: 'A' });
    await opening([]);
    await settle();
    await connectionItem.setValue({ baseUrl: 'https://new.example', form: 'A' });
    await defaultBlockItem.setValue({ 'A:default': { enabled: true, at: 1 } });
    expect(await opening([])).toEqual({
      connection: { baseUrl: 'https://new.example', form: 'A' },
      defaultBlock: { 'A:default': { enabled: true, at: 1 } },
    });
    await connectionItem.removeValue();
    expect((await opening([])).connection).toBeUndefined();
  });

  it('are not kept when a write came between the read and the copy', async () => {
    await connectionItem.setValue({ baseUrl: 'https://old.example', form: 'A' });
    let readsSoFar = 0;
    await readThroughCopies(session(), ['connection'], async (names) => {
      const answer = await fakeBrowser.storage.local.get(names);
      // Another page writes right after the first read, before the copy is made.
      if (readsSoFar++ === 0)
        await fakeBrowser.storage.local.set({ connection: { baseUrl: 'https://new.example', form: 'A' } });
      return answer;
    });
    await settle();
    expect(await session().get(copyName('connection'))).toEqual({});
    expect((await opening([])).connection).toEqual({ baseUrl: 'https://new.example', form: 'A' });
  });

  it('read storage for a name whose copy is not a copy (garbage in storage.session)', async () => {
    await connectionItem.setValue({ baseUrl: 'https://dns.example', form: 'A' });
    await session().set({ [copyName('connection')]: 'garbage', [copyName('defaultBlock')]: null });
    const reads: string[][] = [];
    expect((await opening(reads)).connection).toEqual({ baseUrl: 'https://dns.example', form: 'A' });
    expect(reads[0]).toEqual(['connection', 'defaultBlock']);
  });

  it('read storage when storage.session cannot answer', async () => {
    await connectionItem.setValue({ baseUrl: 'https://dns.example', form: 'A' });
    vi.spyOn(session(), 'get').mockRejectedValue(new Error('no session storage'));
    expect((await opening([])).connection).toEqual({ baseUrl: 'https://dns.example', form: 'A' });
  });
});
