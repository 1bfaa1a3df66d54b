// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { lookupPublicIpv4 } from '@/lib/network';
import { chunkedBody } from '../api/fake-fetch';

describe('an IP lookup answer is read only up to its cap', () => {
  it('a 5 MB answer is cut off after the first chunks and cancelled, then refused', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const { stream, state } = chunkedBody(Array.from({ length: 80 }, () => chunk));
    const fetchImpl = (async () => new Response(stream)) as unknown as typeof fetch;
    const result = await lookupPublicIpv4(['https://huge.example/'], fetchImpl);
    expect(result).toMatchObject({ ok: false, reason: 'malformed' });
    expect(state.pulled).toBeLessThanOrEqual(2);
    expect(state.cancelled).toBe(true);
  });

  it('an answer that arrives in many small chunks is still read whole', async () => {
    const { stream } = chunkedBody(['20', '3.0', '.113', '.7', '\n']);
    const fetchImpl = (async () => new Response(stream)) as unknown as typeof fetch;
    expect(await lookupPublicIpv4(['https://slow.example/'], fetchImpl)).toEqual({
      ok: true,
      ip: '203.0.113.7',
      url: 'https://slow.example/',
    });
  });
});
