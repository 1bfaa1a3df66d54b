/**
 * A domain a schedule owns, changed by hand (docs/schedules.md, "Manual changes"): which rule owns
 * it for a profile, and the right-click menu's choice, which cannot ask: the change is kept until
 * the rule's next edge, and the notification's sentence says so.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { keepMenuChange, ruleOwning, rulesOwningDomains } from '@/lib/schedules/manual';
import type { ScheduleRule } from '@/lib/schedules/schema';
import { schedulesItem } from '@/lib/schedules/store';
import { englishClock, spaced } from './fixtures';

beforeEach(() => fakeBrowser.reset());

// A window from half an hour before now to an hour and a half after, in the test's own zone.
const NOW = Date.parse('2026-07-06T16:30:00Z');
const END = NOW + 90 * 60_000;
const hhmm = (at: number) => {
  const date = new Date(at);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
};

const homework: ScheduleRule = {
  id: 'homework',
  name: 'Homework time',
  profile: 'kids',
  days: [1, 2, 3, 4, 5, 6, 7],
  windows: [{ start: hhmm(NOW - 30 * 60_000), end: hhmm(END) }],
  owns: [{ kind: 'domain', domain: 'games.example', inside: 'blocklist', outside: 'none' }],
};
const schedules = (overrides: { rule: string; kind: 'release'; from: number; until: number }[] = []) => ({
  leadMinutes: 0,
  rules: [homework],
  overrides,
});

describe('ruleOwning, a domain', () => {
  it('finds the rule owning the domain for its profile, whatever the case or a final dot', () => {
    for (const domain of ['games.example', 'Games.Example', 'games.example.']) {
      const status = ruleOwning(schedules(), 'kids', { kind: 'domain', domain }, NOW);
      expect(status?.rule.name).toBe('Homework time');
      expect(status?.nextEdgeAt).toBe(END);
    }
  });

  it('another domain, a subdomain, another profile, or a rule already left alone: none', () => {
    const none = (profile: string, domain: string, kept = schedules()) =>
      ruleOwning(kept, profile, { kind: 'domain', domain }, NOW);
    expect(none('kids', 'other.example')).toBeNull();
    expect(none('kids', 'www.games.example')).toBeNull();
    expect(none('teens', 'games.example')).toBeNull();
    const released = schedules([{ rule: 'homework', kind: 'release', from: NOW - 1, until: END }]);
    expect(none('kids', 'games.example', released)).toBeNull();
    // A category of the same name is not the domain.
    expect(ruleOwning(schedules(), 'kids', { kind: 'category', category: 'games.example' }, NOW)).toBeNull();
  });

  it('several domains changed at once: one answer per rule, with its domains', async () => {
    await schedulesItem.setValue({ 'account-one': schedules() });
    const owned = await rulesOwningDomains('account-one', 'kids', ['school.example', 'games.example'], NOW);
    expect(owned.map(({ status, domains }) => [status.rule.id, domains])).toEqual([
      ['homework', ['games.example']],
    ]);
    expect(await rulesOwningDomains('account-two', 'kids', ['games.example'], NOW)).toEqual([]);
  });
});

describe('keepMenuChange (the menu and the shortcuts)', () => {
  it('keeps the change until the rule’s next edge and says so; undo takes it back', async () => {
    await schedulesItem.setValue({ 'account-one': schedules() });
    const kept = await keepMenuChange('account-one', ['kids'], 'games.example', NOW);
    expect(spaced(kept?.sentence ?? null)).toBe(
      `“Homework time” sets this domain at set times: your change is kept until ${englishClock(END)}, and “Homework time” resumes then.`,
    );
    expect((await schedulesItem.getValue())['account-one']?.overrides).toEqual([
      { rule: 'homework', kind: 'release', from: NOW, until: END },
    ]);
    await kept?.undo();
    expect((await schedulesItem.getValue())['account-one']?.overrides).toEqual([]);
  });

  it('a domain no rule owns for the profile: nothing stored, nothing said', async () => {
    await schedulesItem.setValue({ 'account-one': schedules() });
    expect(await keepMenuChange('account-one', ['teens'], 'games.example', NOW)).toBeNull();
    expect((await schedulesItem.getValue())['account-one']?.overrides).toEqual([]);
  });
});
