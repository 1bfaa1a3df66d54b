/**
 * Which accounts of this browser the administrator's policy set up: account id → the name the
 * policy gives it. The policy names accounts by name (docs/managed-deployment.md), the extension
 * by a stable id; this record ties the two, so a policy's later change updates the same account
 * and its removal from the policy removes that account, never one the user added.
 */
import * as z from 'zod/mini';
import { defineItem } from '@/lib/settings/item';
import { recordOf, string } from '@/lib/settings/shape';

const policyAccountsSchema = z.record(
  z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/)),
  z.string().check(z.minLength(1)),
);

export const policyAccountsItem = defineItem<Record<string, string>>(
  'local:policyAccounts',
  async () => policyAccountsSchema,
  { shape: recordOf(string), fallback: {}, version: 1 },
);
