// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '@/lib/api';
import type { ApiForm, ApiMethod, DnsFilterApi } from '@/lib/api/types';
import { drain, fakeFetch } from './fake-fetch';

const KEY = 'fuzzKEY987';

/** One call of every client method: a method added to `DnsFilterApi` must be added here. */
const CALLS: Record<ApiMethod, (api: DnsFilterApi) => Promise<unknown>> = {
  listProfiles: (api) => api.listProfiles(),
  addProfile: (api) => api.addProfile('Kids2024'),
  deleteProfile: (api) => api.deleteProfile('kids'),
  listCategories: (api) => api.listCategories('kids'),
  setCategoryBlocked: (api) => api.setCategoryBlocked('adult', true),
  listDomains: (api) => api.listDomains('whitelist', 'kids'),
  listDomainsByProfile: (api) => api.listDomainsByProfile('blocklist'),
  addDomain: (api) => api.addDomain('whitelist', 'example.com'),
  deleteDomain: (api) => api.deleteDomain('blocklist', 'example.com'),
  blockTld: (api) => api.blockTld('.xyz'),
  setDefaultBlock: (api) => api.setDefaultBlock(true),
  listNetworks: (api) => api.listNetworks(),
  addNetwork: (api) => api.addNetwork({ ip: '203.0.113.50', label: 'Home' }),
  deleteNetwork: (api) => api.deleteNetwork({ ip: '203.0.113.50' }),
  listLogDays: (api) => api.listLogDays(),
  getStats: (api) => api.getStats('2024-05-01'),
  getDump: async (api) => drain(await api.getDump('2024-05-01')),
  deleteLogDay: (api) => api.deleteLogDay('2024-05-01'),
};
const METHODS = Object.entries(CALLS);

const ALIASES = [
  'status',
  'reason',
  'message',
  'profiles',
  'categories',
  'blocked',
  'domains',
  'whitelist',
  'blocklist',
  'networks',
  'logs',
  'dates',
  'ips',
  'reqtypes',
  'action',
  'blocks',
  'name',
  'domain',
  'category',
  'ip',
  'label',
  'profile',
  'date',
  'default',
  'Allowed',
  'Blocked',
  '__proto__',
  'constructor',
];

// JSON that often looks like an answer: known keys, status words, nested lists and maps.
const nearMiss: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      'success',
      'failed',
      'error',
      'default',
      '2024-05-01',
      'category_adult',
      '203.0.113.50',
      KEY,
    ),
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...ALIASES), tie('value'), { maxKeys: 5 }),
  ),
})).value;

const body = fc.oneof(
  nearMiss.map((value) => JSON.stringify(value) ?? 'null'),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', '<html>oops</html>', '{"status":"success"', 'null', '[]', '{}'),
);

const answer = fc.record({
  body,
  status: fc.constantFrom(200, 200, 201, 204, 400, 401, 403, 404, 429, 500, 502, 503),
  contentType: fc.constantFrom('application/json', 'text/plain', 'text/html', ''),
});

describe('random answers into every method', () => {
  it.each(['A', 'B'] as const)(
    'Form %s: every method resolves or rejects with ApiError, never leaking the key',
    async (form: ApiForm) => {
      await fc.assert(
        fc.asyncProperty(answer, fc.constantFrom(...METHODS), async (reply, [, run]) => {
          const fake = fakeFetch(
            () =>
              new Response(reply.status === 204 ? null : reply.body, {
                status: reply.status,
                headers: reply.contentType ? { 'content-type': reply.contentType } : {},
              }),
          );
          const api = createApiClient({ baseUrl: 'https://dns.example', form, key: KEY, fetch: fake.fetch });
          try {
            await run(api);
          } catch (error) {
            expect(error).toBeInstanceOf(ApiError);
            expect((error as ApiError).message).not.toContain(KEY);
            expect(JSON.stringify((error as ApiError).details)).not.toContain(KEY);
          }
        }),
        { numRuns: 1500 },
      );
    },
  );
});
