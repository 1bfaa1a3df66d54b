import { type ConfiguredClient as Configured, configuredClient } from '@/lib/api/configured-client';
import { useStoredValue } from './useStoredValue';

export type ConfiguredClient = { state: 'loading' } | Configured;

/**
 * The API client for the stored settings, rebuilt whenever the key or the connection changes
 * (Save or Forget key in Setup, or another tab), so every section follows the saved settings.
 */
export function useConfiguredClient(): ConfiguredClient {
  return useStoredValue(configuredClient, { state: 'loading' });
}
