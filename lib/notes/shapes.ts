/**
 * The structure of the notes' stored value in the current version (./schema.ts has the zod
 * schema, checked on every write), read without zod (lib/settings/shape.ts says why).
 */
import { PAGE_HOST } from '@/lib/filtering/hostname';
import { arrayOf, matching, number, object, oneOf, string } from '@/lib/settings/shape';
import { NOTES_VERSION } from './limits';

const entryRecord = object(
  { scope: string, list: oneOf('whitelist', 'blocklist'), domain: string, at: number },
  // The page is a host, never a whole address: a note must not show one.
  { addedAt: number, source: string, page: matching(PAGE_HOST), note: string },
);

export const accountNotes = object({ v: oneOf(NOTES_VERSION), entries: arrayOf(entryRecord) });
