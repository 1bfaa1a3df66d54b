/**
 * User information in typed addresses. The URL parser reads everything before an `@` in the
 * authority as a user name and password, so `example.com@evil.com` names the host `evil.com`:
 * a domain, a list entry or a service origin the user did not mean. Such input is refused with a
 * message instead of being reduced to the host after the `@`.
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const LEADING_SLASHES = /^[/\\]+/;
const AUTHORITY_END = /[/\\?#]/;

/**
 * True when the authority part of `input` (after an optional scheme and slashes, up to the first
 * `/`, `\`, `?` or `#`) holds an `@`. Stricter than the URL parser: `https:\\a@b` and
 * `example.com:80@evil.com` count too; an `@` in a path or query does not.
 */
export function hasUserInfo(input: string): boolean {
  const afterScheme = input.trim().replace(SCHEME, '').replace(LEADING_SLASHES, '');
  const authority = afterScheme.split(AUTHORITY_END, 1)[0] ?? '';
  // Without a scheme, `user:pass@host` loses `user:` as if it were one: the `@` remains.
  return authority.includes('@');
}
