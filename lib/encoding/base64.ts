/**
 * Bytes as base64 text and back: History stores its packed records so (lib/history/packing.ts),
 * and the lock keeps its derived key and sealed box so (lib/lock/crypto.ts).
 */

/** Base64 without building one argument list per byte (large records would overflow the stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let at = 0; at < bytes.length; at += chunk) {
    binary += String.fromCharCode(...bytes.subarray(at, at + chunk));
  }
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
