/**
 * The key's fingerprint (the first 16 hex digits of its SHA-256), computed once per page: by the
 * popup's first script as soon as its early reads bring the stored key, while the modules still
 * load, or else by the account identity (identity.ts) when it first needs it. In Firefox's real
 * popup the hash took ~0.5 ms between the settings and the lists, the page's code still cold
 * (docs/architecture.md, "Where the popup's time goes").
 *
 * Nothing is trusted that was not computed here: the page remembers one key and its fingerprint,
 * both from this function, and answers only for exactly that key. Zod-free and WXT-free: the
 * first script bundles it on its own.
 */
import { sha256 } from './sha256';

/** Where the API key is stored (`apiKeyItem`, lib/settings/storage.ts, without WXT's `local:`). */
export const STORED_API_KEY = 'apiKey';

const GLOBAL_NAME = '__dnsFilterKeyFingerprint';

interface Remembered {
  key: string;
  fingerprint: string;
}

/**
 * The first 16 hex digits of `key`'s SHA-256 (of its UTF-8 bytes), remembered for this page. Only
 * pages remember it: the worker keeps no state in its globals (docs/architecture.md).
 */
export function fingerprintOfKey(
  key: string,
  scope: object = globalThis,
  remember: boolean = typeof document !== 'undefined',
): string {
  const remembered = (scope as Record<string, Remembered | undefined>)[GLOBAL_NAME];
  if (remembered?.key === key) return remembered.fingerprint;
  const fingerprint = [...sha256(key).slice(0, 8)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  const value: Remembered = { key, fingerprint };
  if (remember) Object.defineProperty(scope, GLOBAL_NAME, { value, configurable: true, writable: true });
  return fingerprint;
}
