/**
 * The managed-policy test build's id (scripts/build/managed-test-build.ts) is the one its manifest
 * key gives: the e2e test writes its policy for that id, so a wrong one would test nothing.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { MANAGED_TEST_EXTENSION_ID, MANAGED_TEST_MANIFEST_KEY } from '@/scripts/build/managed-test-build';

it('names the id Chromium derives from the manifest key', () => {
  const digest = createHash('sha256').update(Buffer.from(MANAGED_TEST_MANIFEST_KEY, 'base64')).digest('hex');
  const id = [...digest.slice(0, 32)]
    .map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16)))
    .join('');
  expect(id).toBe(MANAGED_TEST_EXTENSION_ID);
});
