import { describe, expect, it } from 'vitest';
import { lookupPublicIpv4, parseLookupAnswer } from '@/lib/network';

describe('parseLookupAnswer', () => {
  it.each([
    ['203.0.113.7', { ok: true, ip: '203.0.113.7' }],
    ['  203.0.113.7\n', { ok: true, ip: '203.0.113.7' }],
    ['{"ip":"203.0.113.7"}', { ok: true, ip: '203.0.113.7' }],
    ['{"ip":" 203.0.113.7 ","country":"NL"}', { ok: true, ip: '203.0.113.7' }],
    ['2001:db8::1', { ok: false, reason: 'ipv6' }],
    ['{"ip":"2001:db8::1"}', { ok: false, reason: 'ipv6' }],
    ['::ffff:203.0.113.7', { ok: false, reason: 'ipv6' }],
    ['', { ok: false, reason: 'malformed' }],
    ['203.0.113', { ok: false, reason: 'malformed' }],
    ['203.0.113.256', { ok: false, reason: 'malformed' }],
    ['010.0.0.1', { ok: false, reason: 'malformed' }],
    ['<html><body>Too many requests</body></html>', { ok: false, reason: 'malformed' }],
    ['{"ip":', { ok: false, reason: 'malformed' }],
    ['{"ip":7}', { ok: false, reason: 'malformed' }],
    ['203.0.113.7 198.51.100.1', { ok: false, reason: 'malformed' }],
  ])('%j → %j', (body, expected) => {
    expect(parseLookupAnswer(body)).toMatchObject(expected);
  });
});

type Answer = { status?: number; body?: string; throws?: true };
function fetchAnswering(answers: Record<string, Answer>) {
  const asked: string[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    asked.push(url);
    expect(init?.credentials).toBe('omit');
    const answer = answers[url];
    if (!answer || answer.throws) throw new TypeError('Failed to fetch');
    return new Response(answer.body ?? '', { status: answer.status ?? 200 });
  }) as typeof fetch;
  return { fetchImpl, asked };
}

describe('lookupPublicIpv4', () => {
  it('uses the first URL that gives an IPv4, in order', async () => {
    const { fetchImpl, asked } = fetchAnswering({
      'https://a.example/': { throws: true },
      'https://b.example/': { status: 503 },
      'https://c.example/': { body: '2001:db8::1' },
      'https://d.example/': { body: '{"ip":"198.51.100.9"}' },
      'https://e.example/': { body: '198.51.100.10' },
    });
    const result = await lookupPublicIpv4(
      [
        'https://a.example/',
        'https://b.example/',
        'https://c.example/',
        'https://d.example/',
        'https://e.example/',
      ],
      fetchImpl,
    );
    expect(result).toEqual({ ok: true, ip: '198.51.100.9', url: 'https://d.example/' });
    expect(asked).toEqual([
      'https://a.example/',
      'https://b.example/',
      'https://c.example/',
      'https://d.example/',
    ]);
  });

  it('names every URL and its problem when none works', async () => {
    const { fetchImpl } = fetchAnswering({
      'https://a.example/': { throws: true },
      'https://b.example/': { body: '2001:db8::1' },
    });
    const result = await lookupPublicIpv4(['https://a.example/', 'https://b.example/'], fetchImpl);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe('ipv6');
    expect(result.message).toMatch(
      /a\.example\/: not reachable; https:\/\/b\.example\/: it answered with an IPv6/,
    );
  });

  it('gives up on a URL that does not answer in time', async () => {
    const hanging = ((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      })) as typeof fetch;
    const result = await lookupPublicIpv4(['https://slow.example/'], hanging, { timeoutMs: 20 });
    expect(result).toMatchObject({
      ok: false,
      reason: 'unreachable',
      message: expect.stringMatching(/no answer within/),
    });
  });
});
