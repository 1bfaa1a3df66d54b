/**
 * The lock's cryptography (docs/lock.md, "Design"): a key derived from the passphrase with
 * PBKDF2-SHA-256 and a random salt, and AES-GCM with a fresh random IV for every write. WebCrypto
 * only: its work runs off the page's main thread, so a derivation does not freeze the popup.
 */
import type * as z from 'zod/mini';
import { fromBase64, toBase64 } from '@/lib/encoding/base64';
import type { lockRecordSchema } from './schemas';

/** OWASP's figure for PBKDF2-SHA-256 (docs/lock.md, "Design"); stored with each record, so it can rise. */
export const PBKDF2_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;

/** A sealed value as stored: every part base64, nothing of it readable without the passphrase. */
type SealedBox = z.infer<typeof lockRecordSchema>['box'];

const randomBytes = (length: number) => crypto.getRandomValues(new Uint8Array(length));

export function newSalt(): string {
  return toBase64(randomBytes(SALT_BYTES));
}

/** The AES-GCM key for `passphrase` and `salt`: extractable, so an unlocked session can keep it. */
export async function deriveKey(passphrase: string, salt: string, iterations: number): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(passphrase.normalize('NFC')),
    'PBKDF2',
    false,
    ['deriveKey'],
  );
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: fromBase64(salt), iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    true,
    ['encrypt', 'decrypt'],
  );
}

export async function exportKey(key: CryptoKey): Promise<string> {
  return toBase64(new Uint8Array(await crypto.subtle.exportKey('raw', key)));
}

export function importKey(raw: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', fromBase64(raw), { name: 'AES-GCM' }, true, ['encrypt', 'decrypt']);
}

/** `plaintext` sealed with `key`, under a fresh IV; `salt` and `iterations` say how the key was made. */
export async function seal(
  key: CryptoKey,
  plaintext: string,
  derivation: { salt: string; iterations: number },
): Promise<SealedBox> {
  const iv = randomBytes(IV_BYTES);
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(plaintext));
  return { ...derivation, iv: toBase64(iv), data: toBase64(new Uint8Array(data)) };
}

/** The plaintext, or null when `key` is not the one it was sealed with (AES-GCM's tag does not match). */
export async function open(key: CryptoKey, box: SealedBox): Promise<string | null> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(box.iv) },
      key,
      fromBase64(box.data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
