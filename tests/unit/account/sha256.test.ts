import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from '@/lib/account/sha256';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const nodeDigest = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
  ])('the standard test vector %j', (text, digest) => {
    expect(hex(sha256(text))).toBe(digest);
  });

  it('gives Node’s digest for any text, across block boundaries and in any script', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(hex(sha256(text))).toBe(nodeDigest(text));
      }),
      { numRuns: 300 },
    );
    for (let length = 50; length <= 130; length++)
      expect(hex(sha256('k'.repeat(length)))).toBe(nodeDigest('k'.repeat(length)));
  });
});
