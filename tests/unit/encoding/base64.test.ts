import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '@/lib/encoding/base64';

describe('base64', () => {
  it('gives back the bytes it was given, whatever they are', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2_000 }), (bytes) => {
        expect(fromBase64(toBase64(bytes))).toEqual(bytes);
      }),
    );
  });

  it('writes the standard alphabet, as the browser reads it back', () => {
    const bytes = new TextEncoder().encode('snapshot ✓');
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('encodes a record of several megabytes (a large account’s History) without overflowing the stack', () => {
    const bytes = new Uint8Array(3_000_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
    const text = toBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(Buffer.from(fromBase64(text)).equals(Buffer.from(bytes))).toBe(true);
  });
});
