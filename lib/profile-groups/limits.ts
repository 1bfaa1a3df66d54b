/** Bounds of the saved profile groups (docs/several-profiles.md). */

/** Saved groups per account: a choice in a select, not a database. */
export const MAX_GROUPS = 20;
export const GROUP_NAME_MAX = 40;
