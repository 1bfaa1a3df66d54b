// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError, CATEGORY_CATALOGUE, capabilitiesOf, createApiClient } from '@/lib/api';
import type { ApiForm, DnsFilterApi } from '@/lib/api/types';
import { fakeFetch, json, type RecordedRequest, rejectionOf, text } from './fake-fetch';

const STATS = {
  ips: { '2024-05-01 10:00': { '192.0.2.10': 3 } },
  reqtypes: { '2024-05-01 10:00': { A: 2, AAAA: 1 } },
  action: { '2024-05-01 10:00': { Allowed: 2, Blocked: 1 } },
  blocks: { '2024-05-01 10:00': { category_adult: 1 } },
  domains: { '2024-05-01 10:00': { Allowed: { 'example.com.': 2 }, Blocked: { 'ads.example.net.': 1 } } },
};

/** Plausible answers of a service that follows the spec, per action. */
function service(form: ApiForm) {
  return (request: RecordedRequest): Response => {
    switch (request.action) {
      case 'profiles/list':
        return json({ status: 'success', profiles: ['default', 'kids'] });
      case 'categories/list':
        return form === 'A'
          ? json({ status: 'success', categories: ['category_adult'] })
          : json({ status: 'success', categories: [{ category: 'adult', blocked: true }] });
      case 'whitelist/list':
      case 'blocklist/list': {
        const list = request.action.split('/')[0]!;
        return form === 'A'
          ? json({ status: 'success', [list]: { default: ['example.com'], kids: ['kids.example'] } })
          : json({ status: 'success', domains: ['example.com'] });
      }
      case 'network/list':
        return form === 'A'
          ? json({ status: 'success', networks: { default: ['203.0.113.50'] } })
          : json({
              status: 'success',
              networks: [{ ip: '203.0.113.50', label: 'Home Network', profile: 'default' }],
            });
      case 'logs/list':
        return json({ status: 'success', logs: ['2024-05-02', '2024-05-01'] });
      case 'logs/getstats':
        return json(STATS);
      case 'logs/getdump':
        return text('2024-05-01 10:00:01 1 pass-through: allowed: 192.0.2.10: 1: example.com. (9.9.9.9)\n');
      default:
        return json({ status: 'success' });
    }
  };
}

function clientFor(form: ApiForm) {
  const fake = fakeFetch(service(form));
  const api = createApiClient({
    baseUrl: 'https://dns.example/ignored/path',
    form,
    key: 'KEY123',
    fetch: fake.fetch,
  });
  return { api, ...fake };
}

type Call = [
  label: string,
  run: (api: DnsFilterApi) => Promise<unknown>,
  action: string,
  params: Record<string, string>,
];

const FORM_A_CALLS: Call[] = [
  ['listProfiles', (api) => api.listProfiles(), 'profiles/list', {}],
  ['addProfile', (api) => api.addProfile('Kids2024'), 'profile/add', { profile_name: 'Kids2024' }],
  ['deleteProfile', (api) => api.deleteProfile('kids'), 'profile/delete', { profile_name: 'kids' }],
  ['listCategories', (api) => api.listCategories('kids'), 'categories/list', { profile_name: 'kids' }],
  ['listCategories default', (api) => api.listCategories(), 'categories/list', {}],
  [
    'block category',
    (api) => api.setCategoryBlocked('category_gambling', true, 'kids'),
    'category/block',
    { category_name: 'category_gambling', profile_name: 'kids' },
  ],
  [
    'allow category',
    (api) => api.setCategoryBlocked('category_gambling', false),
    'category/allow',
    { category_name: 'category_gambling' },
  ],
  [
    'whitelist of a profile',
    (api) => api.listDomains('whitelist', 'kids'),
    'whitelist/list',
    { profile_name: 'kids' },
  ],
  [
    'blocklist of default',
    (api) => api.listDomains('blocklist'),
    'blocklist/list',
    { profile_name: 'default' },
  ],
  ['whitelist of every profile', (api) => api.listDomainsByProfile('whitelist'), 'whitelist/list', {}],
  [
    'whitelist add',
    (api) => api.addDomain('whitelist', 'https://WWW.Example.com/page', 'kids'),
    'whitelist/add',
    { domain_name: 'www.example.com', profile_name: 'kids' },
  ],
  [
    'whitelist delete',
    (api) => api.deleteDomain('whitelist', 'example.com'),
    'whitelist/delete',
    { domain_name: 'example.com' },
  ],
  [
    'blocklist add',
    (api) => api.addDomain('blocklist', 'bücher.de'),
    'blocklist/add',
    { domain_name: 'xn--bcher-kva.de' },
  ],
  [
    'blocklist delete',
    (api) => api.deleteDomain('blocklist', 'ads.example.net', 'kids'),
    'blocklist/delete',
    { domain_name: 'ads.example.net', profile_name: 'kids' },
  ],
  [
    'tld add',
    (api) => api.blockTld('xyz', 'kids'),
    'tld_blocklist/add',
    { tld: '.xyz', profile_name: 'kids' },
  ],
  [
    'default block on',
    (api) => api.setDefaultBlock(true),
    'default-block/enable',
    { profile_name: 'default' },
  ],
  [
    'default block off',
    (api) => api.setDefaultBlock(false, 'kids'),
    'default-block/disable',
    { profile_name: 'kids' },
  ],
  ['network list', (api) => api.listNetworks(), 'network/list', {}],
  [
    'network add',
    (api) => api.addNetwork({ ip: '203.0.113.50', label: '  Home Network ', profile: 'kids' }),
    'network/add',
    { ip_address: '203.0.113.50', label: 'Home Network', profile_name: 'kids' },
  ],
  [
    'network add, blank label',
    (api) => api.addNetwork({ ip: '203.0.113.50', label: '  ' }),
    'network/add',
    { ip_address: '203.0.113.50' },
  ],
  [
    'network delete',
    (api) => api.deleteNetwork({ ip: '203.0.113.50', profile: 'kids' }),
    'network/delete',
    { ip_address: '203.0.113.50', profile_name: 'kids' },
  ],
  ['logs list', (api) => api.listLogDays(), 'logs/list', {}],
  ['stats', (api) => api.getStats('2024-05-01'), 'logs/getstats', { date: '2024-05-01' }],
  ['dump', (api) => api.getDump('2024-05-01'), 'logs/getdump', { date: '2024-05-01' }],
  ['logs delete', (api) => api.deleteLogDay('2024-05-01'), 'logs/delete', { date: '2024-05-01' }],
];

const FORM_B_CALLS: Call[] = [
  ['listProfiles', (api) => api.listProfiles(), 'profiles/list', {}],
  ['addProfile', (api) => api.addProfile('Kids2024'), 'profile/add', { name: 'Kids2024' }],
  ['deleteProfile', (api) => api.deleteProfile('kids'), 'profile/delete', { name: 'kids' }],
  ['listCategories ignores the profile', (api) => api.listCategories('kids'), 'categories/list', {}],
  [
    'block category',
    (api) => api.setCategoryBlocked('gambling', true, 'kids'),
    'category/block',
    { category: 'gambling' },
  ],
  [
    'allow category',
    (api) => api.setCategoryBlocked('gambling', false),
    'category/allow',
    { category: 'gambling' },
  ],
  ['whitelist list', (api) => api.listDomains('whitelist', 'kids'), 'whitelist/list', {}],
  ['blocklist list', (api) => api.listDomainsByProfile('blocklist'), 'blocklist/list', {}],
  [
    'whitelist add',
    (api) => api.addDomain('whitelist', 'Example.com.', 'kids'),
    'whitelist/add',
    { domain: 'example.com' },
  ],
  [
    'whitelist delete',
    (api) => api.deleteDomain('whitelist', 'example.com'),
    'whitelist/delete',
    { domain: 'example.com' },
  ],
  [
    'blocklist add',
    (api) => api.addDomain('blocklist', 'ads.example.net'),
    'blocklist/add',
    { domain: 'ads.example.net' },
  ],
  [
    'blocklist delete',
    (api) => api.deleteDomain('blocklist', 'ads.example.net'),
    'blocklist/delete',
    { domain: 'ads.example.net' },
  ],
  ['default block on', (api) => api.setDefaultBlock(true, 'kids'), 'default-block/enable', {}],
  ['default block off', (api) => api.setDefaultBlock(false), 'default-block/disable', {}],
  ['network list', (api) => api.listNetworks(), 'network/list', {}],
  [
    'network add',
    (api) => api.addNetwork({ ip: '203.0.113.50', label: 'Home Network', profile: 'kids' }),
    'network/add',
    { ip: '203.0.113.50', label: 'Home Network' },
  ],
  [
    'network delete',
    (api) => api.deleteNetwork({ ip: '203.0.113.50', profile: 'kids' }),
    'network/delete',
    { ip: '203.0.113.50' },
  ],
  ['logs list', (api) => api.listLogDays(), 'logs/list', {}],
  ['stats', (api) => api.getStats('2024-05-01'), 'logs/getstats', { date: '2024-05-01' }],
  ['dump', (api) => api.getDump('2024-05-01'), 'logs/getdump', { date: '2024-05-01' }],
  ['logs delete', (api) => api.deleteLogDay('2024-05-01'), 'logs/delete', { date: '2024-05-01' }],
];

const SPEC_ACTIONS_A = [
  'category/block',
  'category/allow',
  'categories/list',
  'profile/add',
  'profile/delete',
  'profiles/list',
  'whitelist/add',
  'whitelist/delete',
  'whitelist/list',
  'blocklist/add',
  'blocklist/delete',
  'blocklist/list',
  'tld_blocklist/add',
  'default-block/enable',
  'default-block/disable',
  'network/add',
  'network/delete',
  'network/list',
  'logs/list',
  'logs/getstats',
  'logs/getdump',
  'logs/delete',
];
const SPEC_ACTIONS_B = SPEC_ACTIONS_A.filter((action) => action !== 'tld_blocklist/add');

describe.each([
  ['A', FORM_A_CALLS, SPEC_ACTIONS_A, '/api'],
  ['B', FORM_B_CALLS, SPEC_ACTIONS_B, '/api/v1/'],
] as const)('Form %s', (form, calls, specActions, path) => {
  it.each(calls)('%s sends %s with the form parameter names', async (_, run, action, params) => {
    const { api, requests } = clientFor(form);
    await run(api);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url.origin).toBe('https://dns.example');
    expect(requests[0]?.path).toBe(path);
    expect(requests[0]?.url.searchParams.get('apikey')).toBe('KEY123');
    expect(requests[0]?.action).toBe(action);
    expect(requests[0]?.params).toEqual(params);
  });

  it(`covers all ${specActions.length} actions of the spec`, () => {
    expect(new Set(calls.map(([, , action]) => action))).toEqual(new Set(specActions));
  });
});

describe('results', () => {
  it('Form A lists every category, blocked where the service names it, and keeps unknown ids', async () => {
    const fake = fakeFetch(() =>
      json({ status: 'success', categories: ['category_adult', 'category_brand_new'] }),
    );
    const api = createApiClient({ baseUrl: 'https://dns.example', form: 'A', key: 'K1', fetch: fake.fetch });
    const categories = await api.listCategories();
    expect(categories).toHaveLength(CATEGORY_CATALOGUE.A.length + 1);
    expect(categories.filter((c) => c.blocked).map((c) => c.id)).toEqual([
      'category_adult',
      'category_brand_new',
    ]);
    expect(categories.map((c) => c.id).slice(0, 20)).toEqual(CATEGORY_CATALOGUE.A.map((c) => c.id));
  });

  it('Form B lists its ten categories with their state', async () => {
    const fake = fakeFetch(() =>
      json({
        status: 'success',
        categories: [
          { category: 'adult', blocked: true },
          { category: 'gaming', blocked: false },
        ],
      }),
    );
    const api = createApiClient({ baseUrl: 'https://dns.example', form: 'B', key: 'K1', fetch: fake.fetch });
    const categories = await api.listCategories();
    expect(categories.map((c) => c.id)).toEqual(CATEGORY_CATALOGUE.B.map((c) => c.id));
    expect(categories.find((c) => c.id === 'adult')?.blocked).toBe(true);
    expect(categories.filter((c) => c.blocked)).toHaveLength(1);
  });

  it('Form A picks the asked profile out of a per-profile answer', async () => {
    const { api } = clientFor('A');
    expect(await api.listDomains('whitelist', 'kids')).toEqual(['kids.example']);
    expect(await api.listDomains('whitelist', 'nobody')).toEqual([]);
    expect(await api.listDomainsByProfile('whitelist')).toEqual({
      default: ['example.com'],
      kids: ['kids.example'],
    });
  });

  it('Form A ignores inherited names when picking a profile', async () => {
    const { api } = clientFor('A');
    expect(await api.listDomains('whitelist', 'constructor')).toEqual([]);
  });

  it('Form B lists are the account’s', async () => {
    const { api } = clientFor('B');
    expect(await api.listDomainsByProfile('whitelist')).toEqual({ account: ['example.com'] });
    expect(await api.listDomains('blocklist')).toEqual(['example.com']);
  });

  it('networks carry their profile (Form A from the map, Form B from the entry) and label', async () => {
    expect(await clientFor('A').api.listNetworks()).toEqual([{ ip: '203.0.113.50', profile: 'default' }]);
    expect(await clientFor('B').api.listNetworks()).toEqual([
      { ip: '203.0.113.50', label: 'Home Network', profile: 'default' },
    ]);
  });

  it('statistics keep the domain keys as given', async () => {
    expect(await clientFor('A').api.getStats('2024-05-01')).toEqual(STATS);
  });

  it('write actions resolve with nothing', async () => {
    await expect(clientFor('A').api.addDomain('whitelist', 'example.com')).resolves.toBeUndefined();
  });
});

describe('inputs are refused before any call', () => {
  const refusals: [string, (api: DnsFilterApi) => Promise<unknown>, string, RegExp][] = [
    [
      'short profile name',
      (api) => api.addProfile('abc'),
      'name',
      /^Could not create the profile “abc”: .*at least 4/,
    ],
    ['profile name with a space', (api) => api.addProfile('my kids'), 'name', /only letters and digits/],
    [
      'wildcard domain',
      (api) => api.addDomain('whitelist', '*.example.com'),
      'domain',
      /^Could not add “\*\.example\.com” to the whitelist: .*wildcard/,
    ],
    [
      'IP as a domain',
      (api) => api.deleteDomain('blocklist', '10.0.0.1'),
      'domain',
      /^Could not remove “10\.0\.0\.1” from the blocklist: /,
    ],
    ['domain with one label', (api) => api.addDomain('blocklist', 'intranet'), 'domain', /full domain/],
    [
      'unknown list',
      (api) => api.addDomain('greylist' as 'whitelist', 'example.com'),
      'list',
      /whitelist or the blocklist/,
    ],
    ['TLD that is a domain', (api) => api.blockTld('example.com'), 'tld', /one top-level domain/],
    [
      'IPv6 network',
      (api) => api.addNetwork({ ip: '2001:db8::1' }),
      'ip',
      /^Could not register the network “2001:db8::1”: /,
    ],
    ['bad IPv4', (api) => api.deleteNetwork({ ip: '300.1.1.1' }), 'ip', /not an IPv4 address/],
    [
      'label with a line break',
      (api) => api.addNetwork({ ip: '203.0.113.50', label: 'a\nb' }),
      'label',
      /control characters/,
    ],
    [
      'label too long',
      (api) => api.addNetwork({ ip: '203.0.113.50', label: 'x'.repeat(65) }),
      'label',
      /at most 64/,
    ],
    [
      'impossible date',
      (api) => api.getStats('2023-02-29'),
      'date',
      /^Could not load the statistics of “2023-02-29”: .*not a real date/,
    ],
    ['badly written date', (api) => api.getDump('01/05/2024'), 'date', /yyyy-mm-dd/],
    ['date to delete', (api) => api.deleteLogDay('yesterday'), 'date', /yyyy-mm-dd/],
    ['empty category', (api) => api.setCategoryBlocked(' ', true), 'category', /choose a category/i],
  ];

  it.each(refusals)('%s', async (_, run, field, message) => {
    for (const form of ['A', 'B'] as const) {
      const { api, mock } = clientFor(form);
      const error = (await rejectionOf(run(api))) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.kind).toBe('invalid-input');
      expect(error.details.field).toBe(field);
      expect(error.message).toMatch(message);
      expect(mock).not.toHaveBeenCalled();
    }
  });

  it('Form A refuses an unusable profile argument', async () => {
    const { api, mock } = clientFor('A');
    const error = (await rejectionOf(api.addDomain('whitelist', 'example.com', ''))) as ApiError;
    expect(error.details.field).toBe('profile');
    expect(mock).not.toHaveBeenCalled();
  });

  it('Form A accepts an existing profile named outside this extension’s rule', async () => {
    const { api, requests } = clientFor('A');
    await api.addDomain('whitelist', 'example.com', 'made-in-dashboard');
    expect(requests[0]?.params.profile_name).toBe('made-in-dashboard');
  });

  it('Form B ignores the profile argument entirely', async () => {
    const { api, requests } = clientFor('B');
    await api.addDomain('whitelist', 'example.com', '');
    expect(requests[0]?.params).toEqual({ domain: 'example.com' });
  });

  it('Form B has no TLD blocking: refused without a call, with the reason', async () => {
    const { api, mock } = clientFor('B');
    const error = (await rejectionOf(api.blockTld('.xyz'))) as ApiError;
    expect(error.kind).toBe('invalid-input');
    expect(error.message).toMatch(/^Could not block the top-level domain \.xyz: .*no TLD blocking/);
    expect(mock).not.toHaveBeenCalled();
    expect(capabilitiesOf('B').tldBlocking).toBe(false);
  });
});

describe('configuration', () => {
  it.each([
    [{ baseUrl: 'http://dns.example' }, 'baseUrl', /https:\/\//],
    [{ baseUrl: '' }, 'baseUrl', /base URL/],
    [{ key: '  ' }, 'key', /API key/],
    [{ form: 'C' as ApiForm }, 'form', /\/api or \/api\/v1\//],
  ])('%j is refused with ApiError invalid-input', (override, field, message) => {
    let thrown: unknown;
    try {
      createApiClient({
        baseUrl: 'https://dns.example',
        form: 'A',
        key: 'K1',
        fetch: fakeFetch().fetch,
        ...override,
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).kind).toBe('invalid-input');
    expect((thrown as ApiError).details.field).toBe(field);
    expect((thrown as ApiError).message).toMatch(message);
  });

  it('accepts plain http on loopback and a pasted key with spaces around it', async () => {
    const fake = fakeFetch(() => json({ status: 'success', profiles: ['default'] }));
    const api = createApiClient({
      baseUrl: 'http://127.0.0.1:8080/',
      form: 'B',
      key: ' K1 \n',
      fetch: fake.fetch,
    });
    await api.listProfiles();
    expect(fake.requests[0]?.url.toString()).toBe(
      'http://127.0.0.1:8080/api/v1/?apikey=K1&action=profiles%2Flist',
    );
  });
});
