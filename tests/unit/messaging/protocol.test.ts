import { describe, expect, it } from 'vitest';
import { isOwnExtensionPage, requestSchema } from '@/lib/messaging/protocol';

describe('isOwnExtensionPage', () => {
  const own = 'chrome-extension://abc/';
  it.each([
    [{ id: 'abc', url: 'chrome-extension://abc/popup.html' }, true],
    [{ id: 'abc', url: 'chrome-extension://abc/options.html', tab: { id: 4 } }, true],
    [{ id: 'abc' }, true],
    [{ id: 'abc', tab: { id: 4 } }, false],
    [{ id: 'abc', url: 'https://example.com/', tab: { id: 4 } }, false],
    [{ id: 'other', url: 'chrome-extension://other/x.html' }, false],
    [{ id: 'other', url: 'chrome-extension://abc/popup.html' }, false],
    [{ url: 'chrome-extension://abc/popup.html' }, false],
  ])('%j → %s', (sender, expected) => {
    expect(isOwnExtensionPage(sender, 'abc', own)).toBe(expected);
  });
});

describe('requestSchema', () => {
  it.each([
    [{ type: 'register-now' }, true],
    [{ type: 'retry-outbox' }, true],
    [
      {
        type: 'submit-change',
        change: { op: 'add', list: 'blocklist', domain: 'a.example', source: 'menu' },
        accountId: 'home-account-0001',
      },
      true,
    ],
    // Every change request names the account the page showed.
    [
      {
        type: 'submit-change',
        change: { op: 'add', list: 'blocklist', domain: 'a.example', source: 'menu' },
      },
      false,
    ],
    [
      {
        type: 'submit-change',
        change: { op: 'add', list: 'blocklist', domain: 'a.example', source: 'menu' },
        accountId: 'A https://my.cleanbrowsing.org 0123456789abcdef',
      },
      false,
    ],
    [
      { type: 'submit-change', change: { op: 'add', list: 'greylist', domain: 'a.example', source: 'menu' } },
      false,
    ],
    [{ type: 'submit-change', change: { op: 'add', list: 'blocklist', domain: '', source: 'menu' } }, false],
    [
      {
        type: 'submit-change',
        change: { op: 'add', list: 'blocklist', domain: 'x'.repeat(254), source: 'menu' },
      },
      false,
    ],
    [{ type: 'unknown' }, false],
    [null, false],
  ])('%j valid: %s', (message, expected) => {
    expect(requestSchema.safeParse(message).success).toBe(expected);
  });
});
