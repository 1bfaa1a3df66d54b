/**
 * The desired state as a function of the time (docs/schedules.md): windows, lead, midnight,
 * overlapping windows, the days the clock jumps, and the overrides.
 */
import { describe, expect, it } from 'vitest';
import { evaluateSchedules } from '@/lib/schedules/desired';
import { gamesBlocked, rule } from './fixtures';

const at = (iso: string) => Date.parse(iso);
const BERLIN = 'Europe/Berlin';
const gamesAt = (
  now: number,
  leadMinutes = 0,
  rules = [rule()],
  overrides = [] as Parameters<typeof evaluateSchedules>[1],
) => evaluateSchedules(rules, overrides, { now, timeZone: BERLIN, leadMinutes });
const blocked = (evaluation: ReturnType<typeof gamesAt>) => [...evaluation.things.values()][0]?.value;

describe('evaluateSchedules', () => {
  // 2026-07-06 is a Monday; Berlin is UTC+2 in summer.
  it('blocks inside the window and gives the outside state before and after it', () => {
    expect(blocked(gamesAt(at('2026-07-06T15:59:00Z')))).toBe(false);
    expect(blocked(gamesAt(at('2026-07-06T16:00:00Z')))).toBe(true);
    expect(blocked(gamesAt(at('2026-07-06T17:59:00Z')))).toBe(true);
    expect(blocked(gamesAt(at('2026-07-06T18:00:00Z')))).toBe(false);
  });

  it('holds nothing on a day the rule does not name (Friday)', () => {
    expect(blocked(gamesAt(at('2026-07-10T17:00:00Z')))).toBe(false);
  });

  it('sends ahead by the lead: 17:15 so that it holds at 18:00', () => {
    const before = gamesAt(at('2026-07-06T12:00:00Z'), 45);
    expect(blocked(before)).toBe(false);
    expect(before.rules[0]?.nextEdgeAt).toBe(at('2026-07-06T16:00:00Z'));
    expect(before.rules[0]?.nextSendAt).toBe(at('2026-07-06T15:15:00Z'));
    expect(before.nextWakeAt).toBe(at('2026-07-06T15:15:00Z'));
    expect(blocked(gamesAt(at('2026-07-06T15:15:00Z'), 45))).toBe(true);
    // And the end is sent at 19:15 for 20:00.
    expect(blocked(gamesAt(at('2026-07-06T17:14:00Z'), 45))).toBe(true);
    expect(blocked(gamesAt(at('2026-07-06T17:15:00Z'), 45))).toBe(false);
  });

  it('keeps a window that crosses midnight into the next day, also from Sunday into Monday', () => {
    const bedtime = rule({ days: [7], windows: [{ start: '22:00', end: '06:30' }] });
    // Sunday 2026-07-05 22:00 local = 20:00Z; Monday 06:30 local = 04:30Z.
    expect(blocked(gamesAt(at('2026-07-05T19:59:00Z'), 0, [bedtime]))).toBe(false);
    expect(blocked(gamesAt(at('2026-07-05T20:00:00Z'), 0, [bedtime]))).toBe(true);
    expect(blocked(gamesAt(at('2026-07-06T04:29:00Z'), 0, [bedtime]))).toBe(true);
    expect(blocked(gamesAt(at('2026-07-06T04:30:00Z'), 0, [bedtime]))).toBe(false);
    expect(gamesAt(at('2026-07-05T21:00:00Z'), 0, [bedtime]).rules[0]?.nextEdgeAt).toBe(
      at('2026-07-06T04:30:00Z'),
    );
  });

  it('treats overlapping windows of one rule as one: no edge where they overlap', () => {
    const twoSlots = rule({
      windows: [
        { start: '18:00', end: '19:30' },
        { start: '19:00', end: '20:00' },
      ],
    });
    const evaluation = gamesAt(at('2026-07-06T16:10:00Z'), 0, [twoSlots]);
    expect(blocked(evaluation)).toBe(true);
    expect(evaluation.rules[0]?.nextEdgeAt).toBe(at('2026-07-06T18:00:00Z'));
  });

  it('holds no window 02:00–03:00 on the spring day, and sends nothing for it', () => {
    // 2026-03-29 (Sunday): Berlin's clocks go from 02:00 to 03:00.
    const night = rule({ days: [7], windows: [{ start: '02:00', end: '03:00' }] });
    for (const iso of [
      '2026-03-29T00:30:00Z',
      '2026-03-29T00:59:00Z',
      '2026-03-29T01:00:00Z',
      '2026-03-29T01:30:00Z',
    ])
      expect(blocked(gamesAt(at(iso), 0, [night]))).toBe(false);
    // The next change is the next Sunday's window, not a change in between.
    expect(gamesAt(at('2026-03-29T00:00:00Z'), 0, [night]).rules[0]?.nextEdgeAt).toBe(
      at('2026-04-05T00:00:00Z'),
    );
  });

  it('holds a window 02:00–03:00 through both times the autumn clock shows it', () => {
    // 2026-10-25 (Sunday): Berlin's 02:00–03:00 comes twice (UTC+2, then UTC+1).
    const night = rule({ days: [7], windows: [{ start: '02:00', end: '03:00' }] });
    expect(blocked(gamesAt(at('2026-10-24T23:59:00Z'), 0, [night]))).toBe(false);
    expect(blocked(gamesAt(at('2026-10-25T00:00:00Z'), 0, [night]))).toBe(true);
    expect(blocked(gamesAt(at('2026-10-25T01:30:00Z'), 0, [night]))).toBe(true);
    expect(blocked(gamesAt(at('2026-10-25T02:00:00Z'), 0, [night]))).toBe(false);
  });

  it('"+30 minutes" holds the window longer; "skip" holds the outside state through it', () => {
    const end = at('2026-07-06T18:00:00Z');
    const extended = gamesAt(
      at('2026-07-06T18:10:00Z'),
      0,
      [rule()],
      [{ rule: 'homework', kind: 'inside', from: at('2026-07-06T17:50:00Z'), until: end + 30 * 60_000 }],
    );
    expect(blocked(extended)).toBe(true);
    expect(extended.rules[0]?.nextEdgeAt).toBe(end + 30 * 60_000);
    const skipped = gamesAt(
      at('2026-07-06T16:30:00Z'),
      0,
      [rule()],
      [{ rule: 'homework', kind: 'outside', from: at('2026-07-06T16:20:00Z'), until: end }],
    );
    expect(blocked(skipped)).toBe(false);
    // The next day's window holds again.
    expect(
      blocked(
        gamesAt(
          at('2026-07-07T16:30:00Z'),
          0,
          [rule()],
          [{ rule: 'homework', kind: 'outside', from: at('2026-07-06T16:20:00Z'), until: end }],
        ),
      ),
    ).toBe(true);
  });

  it('a paused rule owns nothing until the pause ends, and wakes then', () => {
    const until = at('2026-07-06T17:00:00Z');
    const paused = gamesAt(
      at('2026-07-06T16:30:00Z'),
      0,
      [rule()],
      [{ rule: 'homework', kind: 'release', from: at('2026-07-06T16:20:00Z'), until }],
    );
    expect(paused.things.size).toBe(0);
    expect(paused.rules[0]?.released).toBe(true);
    expect(paused.nextWakeAt).toBe(until);
    expect(
      blocked(gamesAt(until, 0, [rule()], [{ rule: 'homework', kind: 'release', from: 0, until }])),
    ).toBe(true);
  });

  it('names the rule inside its window when two rules own one thing', () => {
    const evening = rule({ id: 'evening', name: 'Evening', windows: [{ start: '21:00', end: '22:00' }] });
    const evaluation = gamesAt(at('2026-07-06T19:30:00Z'), 0, [rule(), evening]);
    const games = [...evaluation.things.values()][0];
    expect(games?.rule.name).toBe('Evening');
    expect(games?.value).toBe(gamesBlocked.inside);
  });
});
