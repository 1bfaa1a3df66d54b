import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { CurrentPolicy } from '@/lib/policy/current';

/** The administrator's policy as the options page shows it (lib/policy); null until read. */
export const PolicyContext = createContext<CurrentPolicy | null>(null);

export const usePolicy = (): CurrentPolicy | null => useContext(PolicyContext);
