import { describe, expect, it } from 'vitest';
import { createDomainIndex } from '@/lib/filtering/domain-index';
import { needsStatistics, verdictFor } from '@/lib/filtering/verdict';

const failure = { error: 'net::ERR_NAME_NOT_RESOLVED' };
const knowledge = (patch: Record<string, unknown> = {}) => ({
  whitelist: createDomainIndex([]),
  blocklist: createDomainIndex([]),
  blockedTlds: [],
  defaultBlock: false,
  ...patch,
});

describe('the main frame failing as a verdict input', () => {
  it.each([
    [
      'nothing else known',
      knowledge({ mainFrameFailure: failure }),
      { reason: 'dns-failure', statsChecked: false },
    ],
    [
      'statistics without the host',
      knowledge({ mainFrameFailure: failure, blockedToday: new Map() }),
      { reason: 'dns-failure', statsChecked: true, error: 'net::ERR_NAME_NOT_RESOLVED' },
    ],
    ['no failure', knowledge(), { reason: 'none' }],
    // Stronger evidence wins over the failure.
    [
      'whitelisted',
      knowledge({ mainFrameFailure: failure, whitelist: createDomainIndex(['site.example']) }),
      { reason: 'whitelist' },
    ],
    [
      'blocklisted',
      knowledge({ mainFrameFailure: failure, blocklist: createDomainIndex(['site.example']) }),
      { reason: 'blocklist' },
    ],
    [
      'default-block',
      knowledge({ mainFrameFailure: failure, defaultBlock: true }),
      { reason: 'default-block' },
    ],
    [
      'statistics with the host',
      knowledge({ mainFrameFailure: failure, blockedToday: new Map([['www.site.example', 2]]) }),
      { reason: 'stats', count: 2 },
    ],
  ])('%s', (_case, input, expected) => {
    expect(verdictFor('www.site.example', input)).toMatchObject(expected);
  });

  it('a probable block still asks for today’s statistics, which could confirm it', () => {
    expect(needsStatistics(verdictFor('www.site.example', knowledge({ mainFrameFailure: failure })))).toBe(
      true,
    );
  });
});
