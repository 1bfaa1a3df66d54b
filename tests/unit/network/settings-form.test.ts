import { describe, expect, it } from 'vitest';
import {
  checkDynamicIpDraft,
  type DynamicIpDraft,
  lookupPermissionOrigins,
} from '@/lib/network/settings-form';

describe('checkDynamicIpDraft', () => {
  const draft: DynamicIpDraft = {
    enabled: true,
    interval: '15',
    label: ' Home ',
    profile: 'default',
    firstLookupUrl: 'https://a.example/ip',
    moreLookupUrls: '\nhttps://b.example/ip\n https://a.example/ip \n',
    removePrevious: true,
  };
  it.each([
    [
      {},
      {
        ok: true,
        value: {
          label: 'Home',
          intervalMinutes: 15,
          lookupUrls: ['https://a.example/ip', 'https://b.example/ip'],
        },
      },
    ],
    [{ interval: '4' }, { ok: false }],
    [{ interval: '1441' }, { ok: false }],
    [{ interval: '15.5' }, { ok: false }],
    [{ interval: '1440' }, { ok: true }],
    [{ label: '' }, { ok: false }],
    [{ label: 'a\nb' }, { ok: false }],
    [{ profile: '' }, { ok: true, value: { profile: 'default' } }],
    [{ firstLookupUrl: 'http://ip.example/' }, { ok: false }],
    [{ firstLookupUrl: 'http://localhost:8080/ip' }, { ok: true }],
    [{ firstLookupUrl: 'not a url' }, { ok: false }],
    [{ firstLookupUrl: '', moreLookupUrls: '' }, { ok: false }],
  ])('%j → %j', (patch, expected) => {
    expect(checkDynamicIpDraft({ ...draft, ...patch }, 'A')).toMatchObject(expected);
  });

  it('asks permission per origin, never for loopback', () => {
    expect(
      lookupPermissionOrigins([
        'https://a.example/ip',
        'https://a.example/json',
        'http://127.0.0.1:9/ip',
        'http://[::1]:9/',
      ]),
    ).toEqual(['https://a.example/*']);
  });
});
