// @vitest-environment node

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedListsItem } from '@/lib/cache/cached-lists';
import { journalKeyOf } from '@/lib/history/journal';
import { ACCESS_REQUESTS_NAME } from '@/lib/lock/requests';
import { LOCK_STORAGE_NAMES } from '@/lib/lock/state';
import { NOTES_ACCOUNTS_KEY, notesKeyOf } from '@/lib/notes/entries';
import { copyName } from '@/lib/settings/start-copies';
import * as storage from '@/lib/settings/storage';

/**
 * PRIVACY.md "What is stored in your browser" must name every kind of data the extension keeps:
 * an item added to lib/settings/storage.ts (or the notes' keys) without a row there fails here.
 */
function documentedKeys(): string[] {
  const privacy = readFileSync(join(import.meta.dirname, '../../../PRIVACY.md'), 'utf8');
  const section = privacy.split(/^## 4\. What is stored in your browser$/m)[1]?.split(/^## /m)[0] ?? '';
  const names: string[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || !cells[1]?.startsWith('`')) continue;
    for (const [, name] of cells[1].matchAll(/`([^`]+)`/g)) names.push(name!);
  }
  return names;
}

/** `local:apiKey` → `apiKey`; a key made per account or scope → its name with `<…>` for the part. */
const bare = (key: string) => key.replace(/^(local|session):/, '');

describe('PRIVACY.md', () => {
  it('names every stored item, the notes and the cached lists included', () => {
    const items = (Object.values(storage) as unknown[])
      .map((value) =>
        typeof value === 'object' && value !== null ? (value as { key?: unknown }).key : undefined,
      )
      .filter((key): key is string => typeof key === 'string')
      .map(bare);
    const perAccountOrScope = [
      bare(notesKeyOf('<account>')),
      bare(NOTES_ACCOUNTS_KEY),
      bare(cachedListsItem('<profile>').key),
      // History's journal of the changes made here (lib/history/journal.ts).
      bare(journalKeyOf('<account>')),
      // The passphrase lock's own records (lib/lock).
      ...LOCK_STORAGE_NAMES,
      ACCESS_REQUESTS_NAME,
      // Firefox's copies of what the popup reads as it opens (lib/settings/start-copies.ts).
      copyName('<name>'),
    ];
    expect(items.length).toBeGreaterThan(20);
    const documented = documentedKeys();
    for (const key of [...items, ...perAccountOrScope])
      expect([key, documented.includes(key)]).toEqual([key, true]);
  });
});
