/**
 * The zod schema of the saved profile groups (./groups.ts), loaded only when a value is written or
 * imported: a read trusts the structural guard (docs/architecture.md, "Storage").
 */
import * as z from 'zod/mini';
import { MAX_PROFILES_AT_ONCE } from '@/lib/messaging/protocol';
import { GROUP_NAME_MAX, MAX_GROUPS } from './limits';

export const profileGroupSchema = z.object({
  /** Stable and random: a rename keeps the group. */
  id: z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/)),
  name: z.string().check(z.minLength(1), z.maxLength(GROUP_NAME_MAX)),
  /** The profiles' names as the service lists them, in the order chosen. */
  profiles: z
    .array(z.string().check(z.minLength(1), z.maxLength(256)))
    .check(z.minLength(1), z.maxLength(MAX_PROFILES_AT_ONCE)),
});

/** `profileGroupsItem` (./groups.ts). */
export const profileGroupsSchema = z.array(profileGroupSchema).check(z.maxLength(MAX_GROUPS));
