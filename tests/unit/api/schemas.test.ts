// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  categoriesResponseSchema,
  createApiClient,
  domainListResponseSchema,
  logDaysResponseSchema,
  networksResponseSchema,
  profilesResponseSchema,
  statsResponseSchema,
} from '@/lib/api';
import type { ApiForm, DnsFilterApi } from '@/lib/api/types';
import { fakeFetch, json, rejectionOf } from './fake-fetch';

type Schema = { safeParse(value: unknown): { success: boolean; data?: unknown } };

function accepts(schema: Schema, body: unknown): unknown {
  const result = schema.safeParse(body);
  expect(result.success, JSON.stringify(body)).toBe(true);
  return result.data;
}

function refuses(schema: Schema, body: unknown): void {
  expect(schema.safeParse(body).success, JSON.stringify(body)).toBe(false);
}

describe('profiles/list', () => {
  it.each([
    ['documented', { status: 'success', profiles: ['default', 'kids'] }],
    ['objects {name}', { status: 'success', profiles: [{ name: 'default' }, { name: 'kids' }] }],
    [
      'objects {profile}',
      { status: 'success', profiles: [{ profile: 'default' }, { profile: 'kids', id: 7 }] },
    ],
    ['object map', { status: 'success', profiles: { default: {}, kids: { networks: 1 } } }],
    ['no status', { profiles: ['default', 'kids'] }],
    ['bare array', ['default', 'kids']],
    ['duplicates', { status: 'success', profiles: ['default', 'kids', 'kids'] }],
  ])('%s', (_, body) => {
    expect(accepts(profilesResponseSchema, body)).toEqual(['default', 'kids']);
  });

  it.each([
    ['no list', { status: 'success' }],
    ['a number', { status: 'success', profiles: 3 }],
    ['a string', { status: 'success', profiles: 'default,kids' }],
    ['objects without a name', { status: 'success', profiles: [{ id: 1 }] }],
    ['mixed garbage', { status: 'success', profiles: ['default', 42] }],
    ['status other than success', { status: 'maybe', profiles: ['default'] }],
    ['null', null],
    ['bare object map', { default: {}, kids: {} }],
  ])('refuses %s', (_, body) => refuses(profilesResponseSchema, body));
});

describe('categories/list', () => {
  it.each([
    [
      'Form A: names of blocked ones',
      { status: 'success', categories: ['category_adult', 'category_gambling'] },
    ],
    ['alias blocked', { status: 'success', blocked: ['category_adult', 'category_gambling'] }],
    ['bare array', ['category_adult', 'category_gambling']],
    [
      'objects {category, blocked}',
      {
        status: 'success',
        categories: [
          { category: 'category_adult', blocked: true },
          { category: 'category_gambling', blocked: 'true' },
          { category: 'category_gaming', blocked: false },
        ],
      },
    ],
    [
      'objects {name, status}',
      {
        categories: [
          { name: 'category_adult', status: 'blocked' },
          { name: 'category_gambling', status: 1 },
          { name: 'category_gaming', status: 'allowed' },
        ],
      },
    ],
    [
      'object map of flags',
      {
        status: 'success',
        categories: { category_adult: true, category_gambling: 1, category_gaming: false },
      },
    ],
    [
      'object map of objects',
      {
        categories: {
          category_adult: { blocked: true },
          category_gambling: { blocked: 'on' },
          category_gaming: { blocked: 0 },
        },
      },
    ],
  ])('%s', (_, body) => {
    const states = accepts(categoriesResponseSchema, body) as { id: string; blocked: boolean }[];
    expect(states.filter((s) => s.blocked).map((s) => s.id)).toEqual(['category_adult', 'category_gambling']);
    expect(states.filter((s) => !s.blocked).map((s) => s.id)).toEqual(
      states.length === 3 ? ['category_gaming'] : [],
    );
  });

  it('reads {categories: all, blocked: some} as a catalogue plus the blocked set', () => {
    const states = accepts(categoriesResponseSchema, {
      status: 'success',
      categories: ['adult', 'gaming', 'vpn'],
      blocked: ['adult'],
    });
    expect(states).toEqual([
      { id: 'adult', blocked: true },
      { id: 'gaming', blocked: false },
      { id: 'vpn', blocked: false },
    ]);
  });

  it.each([
    ['no list', { status: 'success' }],
    ['a string', { categories: 'adult' }],
    ['state not understood', { categories: [{ category: 'adult', blocked: 'perhaps' }] }],
    ['objects without id', { categories: [{ blocked: true }] }],
    ['map of strings', { categories: { adult: 'maybe' } }],
  ])('refuses %s', (_, body) => refuses(categoriesResponseSchema, body));
});

describe('whitelist/list and blocklist/list', () => {
  it.each([
    [
      'Form A per-profile map',
      { status: 'success', whitelist: { default: ['a.com', 'b.com'] } },
      { default: ['a.com', 'b.com'] },
    ],
    ['Form B domains array', { status: 'success', domains: ['a.com', 'b.com'] }, ['a.com', 'b.com']],
    ['list name with an array', { status: 'success', whitelist: ['a.com', 'b.com'] }, ['a.com', 'b.com']],
    [
      'objects {domain}',
      { domains: [{ domain: 'a.com', added: 1 }, { domain: 'b.com' }] },
      ['a.com', 'b.com'],
    ],
    ['objects {name}', { domains: [{ name: 'a.com' }, { name: 'b.com' }] }, ['a.com', 'b.com']],
    ['map keyed by domain', { domains: { 'a.com': { added: 1 }, 'b.com': true } }, ['a.com', 'b.com']],
    ['per-profile objects', { whitelist: { default: [{ domain: 'a.com' }] } }, { default: ['a.com'] }],
    ['bare array', ['a.com', 'b.com'], ['a.com', 'b.com']],
    ['empty map', { status: 'success', whitelist: {} }, {}],
  ])('%s', (_, body, expected) => {
    const listing = accepts(domainListResponseSchema('whitelist'), body) as
      | { kind: 'flat'; domains: string[] }
      | { kind: 'by-profile'; byProfile: Record<string, string[]> };
    expect(listing.kind === 'flat' ? listing.domains : listing.byProfile).toEqual(expected);
  });

  it('reads the blocklist under its own name', () => {
    expect(
      accepts(domainListResponseSchema('blocklist'), { status: 'success', blocklist: { kids: ['x.com'] } }),
    ).toEqual({
      kind: 'by-profile',
      byProfile: { kids: ['x.com'] },
    });
  });

  it.each([
    ['no list', { status: 'success' }],
    ["the other list's key", { status: 'success', blocklist: ['a.com'] }],
    ['a string', { domains: 'a.com' }],
    ['numbers', { domains: [1, 2] }],
    ['mixed per-profile map', { whitelist: { default: ['a.com', 3] } }],
  ])('refuses %s', (_, body) => refuses(domainListResponseSchema('whitelist'), body));
});

describe('network/list', () => {
  it.each([
    [
      'Form B documented',
      { status: 'success', networks: [{ ip: '203.0.113.50', label: 'Home Network', profile: 'default' }] },
      [{ ip: '203.0.113.50', label: 'Home Network', profile: 'default' }],
    ],
    [
      'Form A per-profile map',
      { status: 'success', networks: { default: ['203.0.113.50'], kids: ['198.51.100.7'] } },
      [
        { ip: '203.0.113.50', profile: 'default' },
        { ip: '198.51.100.7', profile: 'kids' },
      ],
    ],
    [
      'per-profile objects with ip_address',
      { networks: { kids: [{ ip_address: '198.51.100.7', label: 'School' }] } },
      [{ ip: '198.51.100.7', label: 'School', profile: 'kids' }],
    ],
    ['array of strings', { networks: ['203.0.113.50'] }, [{ ip: '203.0.113.50' }]],
    [
      'null label and profile',
      { networks: [{ ip: '203.0.113.50', label: null, profile: null }] },
      [{ ip: '203.0.113.50' }],
    ],
    ['bare array', [{ ip: '203.0.113.50', label: 'Home' }], [{ ip: '203.0.113.50', label: 'Home' }]],
  ])('%s', (_, body, expected) => {
    expect(accepts(networksResponseSchema, body)).toEqual(expected);
  });

  it.each([
    ['no list', { status: 'success' }],
    ['entries without ip', { networks: [{ label: 'Home' }] }],
    ['a number', { networks: 5 }],
    ['label of the wrong type', { networks: [{ ip: '203.0.113.50', label: 5 }] }],
  ])('refuses %s', (_, body) => refuses(networksResponseSchema, body));
});

describe('logs/list', () => {
  it.each([
    ['documented', { status: 'success', logs: ['2024-05-02', '2024-05-01'] }],
    ['alias dates', { status: 'success', dates: ['2024-05-01', '2024-05-02'] }],
    ['objects {date}', { logs: [{ date: '2024-05-01', size: 3 }, { date: '2024-05-02' }] }],
    ['map keyed by date', { logs: { '2024-05-01': {}, '2024-05-02': {} } }],
    ['timestamps', { logs: ['2024-05-01T00:00:00Z', '2024-05-02 00:00'] }],
    ['bare array, oldest first', ['2024-05-01', '2024-05-02']],
  ])('%s gives the days newest first', (_, body) => {
    expect(accepts(logDaysResponseSchema, body)).toEqual(['2024-05-02', '2024-05-01']);
  });

  it.each([
    ['no list', { status: 'success' }],
    ['not dates', { logs: ['yesterday'] }],
    ['numbers', { logs: [20240501] }],
  ])('refuses %s', (_, body) => refuses(logDaysResponseSchema, body));
});

describe('logs/getstats', () => {
  const full = {
    ips: { '2024-05-01 10:00': { '192.0.2.10': 3 } },
    reqtypes: { '2024-05-01 10:00': { A: 3 } },
    action: { '2024-05-01 10:00': { Allowed: 2, Blocked: 1 } },
    blocks: { '2024-05-01 10:00': { category_adult: 1 } },
    domains: { '2024-05-01 10:00': { Allowed: { 'example.com.': 2 }, Blocked: { 'ads.example.net.': 1 } } },
  };

  it('reads the documented shape, keeping trailing dots', () => {
    expect(accepts(statsResponseSchema, full)).toEqual(full);
  });

  it('tolerates an extra status: success', () => {
    expect(accepts(statsResponseSchema, { status: 'success', ...full })).toEqual(full);
  });

  it('fills missing top-level keys with empty maps', () => {
    expect(accepts(statsResponseSchema, { action: full.action })).toEqual({
      ips: {},
      reqtypes: {},
      action: full.action,
      blocks: {},
      domains: {},
    });
    expect(accepts(statsResponseSchema, {})).toEqual({
      ips: {},
      reqtypes: {},
      action: {},
      blocks: {},
      domains: {},
    });
  });

  it.each([
    ['counts as strings', { ips: { '2024-05-01 10:00': { '192.0.2.10': '3' } } }],
    ['an array', [full]],
    ['hour maps that are arrays', { action: [{ Allowed: 1 }] }],
    ['domains without inner maps', { domains: { '2024-05-01 10:00': { Allowed: 2 } } }],
    ['a status other than success', { status: 'partial', ...full }],
  ])('refuses %s', (_, body) => refuses(statsResponseSchema, body));
});

describe('a refused shape reaches the caller as an unexpected response', () => {
  const run = async (form: ApiForm, body: unknown, call: (api: DnsFilterApi) => Promise<unknown>) => {
    const fake = fakeFetch(() => json(body));
    const api = createApiClient({ baseUrl: 'https://dns.example', form, key: 'K1', fetch: fake.fetch });
    return (await rejectionOf(call(api))) as ApiError;
  };

  it.each([
    ['listProfiles', { status: 'success', profiles: 3 }, (api: DnsFilterApi) => api.listProfiles()],
    [
      'listCategories',
      { status: 'success', categories: 'adult' },
      (api: DnsFilterApi) => api.listCategories(),
    ],
    ['listDomains', { status: 'success', domains: [1] }, (api: DnsFilterApi) => api.listDomains('whitelist')],
    [
      'listDomainsByProfile',
      { status: 'success' },
      (api: DnsFilterApi) => api.listDomainsByProfile('blocklist'),
    ],
    ['listNetworks', { status: 'success', networks: 'x' }, (api: DnsFilterApi) => api.listNetworks()],
    ['listLogDays', { status: 'success', logs: ['x'] }, (api: DnsFilterApi) => api.listLogDays()],
    ['getStats', { ips: 'x' }, (api: DnsFilterApi) => api.getStats('2024-05-01')],
    ['a write', { done: true }, (api: DnsFilterApi) => api.deleteLogDay('2024-05-01')],
  ])('%s', async (_, body, call) => {
    for (const form of ['A', 'B'] as const) {
      const error = await run(form, body, call);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.kind).toBe('unexpected');
      expect(error.message).toMatch(/\(HTTP 200, an answer of an unknown shape\)/);
    }
  });
});
