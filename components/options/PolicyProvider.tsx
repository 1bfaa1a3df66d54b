import type { ComponentChildren } from 'preact';
import { followedBrowserPolicy } from '@/lib/policy/current';
import { useStoredValue } from '../useStoredValue';
import { PolicyContext } from './policy-context';

/** Reads the administrator's policy and follows it, for every part of the options page. */
export function PolicyProvider({ children }: { children: ComponentChildren }) {
  const policy = useStoredValue(followedBrowserPolicy, null);
  return <PolicyContext.Provider value={policy}>{children}</PolicyContext.Provider>;
}
