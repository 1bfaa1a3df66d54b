/** The notes' version and bounds (./entries.ts says how they are bounded), for ./entries.ts and ./schema.ts alike. */
export const NOTES_VERSION = 1;
export const MAX_ENTRIES_PER_ACCOUNT = 300;
export const NOTE_MAX_CHARS = 200;
