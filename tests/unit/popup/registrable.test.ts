import { describe, expect, it, vi } from 'vitest';
import { registrableDomainsOf } from '@/lib/popup/registrable';

describe('registrableDomainsOf (popup)', () => {
  it("takes the worker's answer", async () => {
    const ask = vi.fn(async (hosts: readonly string[]) => hosts.map((host) => `worker:${host}`));
    expect(await registrableDomainsOf(['news.bbc.co.uk', 'a.example'], ask)).toEqual([
      'worker:news.bbc.co.uk',
      'worker:a.example',
    ]);
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('works them out itself when the worker gives no usable answer', async () => {
    expect(await registrableDomainsOf(['news.bbc.co.uk', 'alice.github.io'], async () => null)).toEqual([
      'bbc.co.uk',
      'alice.github.io',
    ]);
  });

  it('asks nothing for no hosts', async () => {
    const ask = vi.fn(async () => null);
    expect(await registrableDomainsOf([], ask)).toEqual([]);
    expect(ask).not.toHaveBeenCalled();
  });
});
