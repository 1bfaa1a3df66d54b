import { describe, expect, it } from 'vitest';
import { computeBadge } from '@/lib/badge';

describe('computeBadge', () => {
  it.each([
    [
      { registrationFailing: false, pendingChanges: 0 },
      { text: '', title: 'DNS Filter Companion' },
    ],
    [
      { registrationFailing: true, registrationMessage: 'Not registered: x', pendingChanges: 3 },
      { text: '!', title: 'DNS Filter Companion: dynamic IP registration is failing (Not registered: x)' },
    ],
    [
      { registrationFailing: false, pendingChanges: 1 },
      { text: '1', title: 'DNS Filter Companion: 1 change is waiting to be sent' },
    ],
    [{ registrationFailing: false, pendingChanges: 120 }, { text: '99+' }],
  ])('%j → %j', (state, expected) => {
    expect(computeBadge(state)).toMatchObject(expected);
  });
});
