import { DEFAULT_BASE_URL } from './storage';

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The default service origin is granted at install (host_permissions). A loopback server used for
 * local testing answers with CORS headers, so it needs nothing. Any other origin is asked for at
 * runtime, when the user saves it: the extension never holds access to hosts the user did not choose.
 */
export function hostPermissionFor(origin: string): string | null {
  const url = new URL(origin);
  if (url.origin === new URL(DEFAULT_BASE_URL).origin) return null;
  if (LOOPBACK_HOST.test(url.hostname)) return null;
  return `${url.origin}/*`;
}
