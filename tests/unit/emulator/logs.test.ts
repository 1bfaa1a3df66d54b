// @vitest-environment node
import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FORM_A_CATEGORIES } from '../../../emulator/categories.ts';
import type { DayStats } from '../../../emulator/index.ts';
import { apiUrl, call, RAW_LINE, TODAY, useEmulator } from './helpers.ts';

const BIG_DAY_MB = 12;
const ctx = useEmulator({ bigDayMb: BIG_DAY_MB });
const A = (action: string, params: Record<string, string> = {}) => call(ctx.emulator, 'A', action, params);
const B = (action: string, params: Record<string, string> = {}) => call(ctx.emulator, 'B', action, params);
const dump = (form: 'A' | 'B', date: string) =>
  fetch(apiUrl(ctx.emulator, form, { action: 'logs/getdump', date }));

function statsFromLines(lines: string[]): Pick<DayStats, 'action' | 'ips' | 'domains'> {
  const stats: Pick<DayStats, 'action' | 'ips' | 'domains'> = { action: {}, ips: {}, domains: {} };
  for (const line of lines) {
    const [, date, hour, verdict, ip, domain] = RAW_LINE.exec(line)!;
    const key = `${date} ${hour}:00`;
    const verdictKey = verdict === 'blocked' ? 'Blocked' : 'Allowed';
    stats.action[key] ??= { Allowed: 0, Blocked: 0 };
    stats.action[key][verdictKey]!++;
    stats.ips[key] ??= {};
    stats.ips[key][ip!] = (stats.ips[key][ip!] ?? 0) + 1;
    stats.domains[key] ??= { Allowed: {}, Blocked: {} };
    const domains = stats.domains[key][verdictKey]!;
    domains[domain!] = (domains[domain!] ?? 0) + 1;
  }
  return stats;
}

/** The HTTP status, with the body released so that no dump is left half-read. */
async function statusOf(response: Promise<Response>): Promise<number> {
  const answer = await response;
  await answer.body?.cancel();
  return answer.status;
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe('seeded log days', () => {
  it('lists seven demo days ending today plus the big day, newest first', async () => {
    const { logs } = (await A('logs/list')).body;
    expect(logs).toEqual([
      '2026-11-22',
      '2026-11-21',
      '2026-11-20',
      '2026-11-19',
      '2026-11-18',
      '2026-11-17',
      '2026-11-16',
      '2026-11-15',
    ]);
    expect(ctx.emulator.admin.state().emulator.bigDay).toBe('2026-11-15');
  });

  it('has statistics that agree with the raw lines of the day', async () => {
    const stats: DayStats = (await A('logs/getstats', { date: '2026-11-20' })).body;
    const text = await (await dump('A', '2026-11-20')).text();
    const lines = text.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1000);
    for (const line of lines) expect(line).toMatch(RAW_LINE);

    const fromLines = statsFromLines(lines);
    expect(stats.action).toEqual(fromLines.action);
    expect(stats.ips).toEqual(fromLines.ips);
    expect(stats.domains).toEqual(fromLines.domains);
    const hours = Object.keys(stats.action);
    expect(hours).toHaveLength(24);
    expect(hours[0]).toBe('2026-11-20 00:00');
    for (const hour of hours) {
      const { Allowed, Blocked } = stats.action[hour]!;
      expect(sum(stats.reqtypes[hour]!)).toBe(Allowed! + Blocked!);
      expect(sum(stats.blocks[hour]!)).toBe(Blocked);
      expect(['A', 'AAAA', 'HTTPS', 'PTR']).toEqual(
        expect.arrayContaining(Object.keys(stats.reqtypes[hour]!)),
      );
      for (const category of Object.keys(stats.blocks[hour]!)) expect(FORM_A_CATEGORIES).toContain(category);
    }
  });

  it('generates the same day identically every time', async () => {
    ctx.emulator.admin.setDumpGuard(false);
    const first = await (await dump('A', TODAY)).text();
    const second = await (await dump('B', TODAY)).text();
    expect(second).toBe(first);
    expect(first).not.toBe(await (await dump('A', '2026-11-21')).text());
  });
});

describe('log day deletion', () => {
  it('removes the raw lines but keeps statistics and the listing', async () => {
    const statsBefore = (await A('logs/getstats', { date: TODAY })).body;
    expect((await A('logs/delete', { date: TODAY })).body).toEqual({ status: 'success' });

    expect((await A('logs/getstats', { date: TODAY })).body).toEqual(statsBefore);
    expect((await B('logs/list')).body.logs).toContain(TODAY);

    const response = await dump('A', TODAY);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ status: 'failed', reason: expect.stringMatching(/deleted/) });
    expect(ctx.emulator.admin.state().logs.find((day) => day.date === TODAY)?.rawDeleted).toBe(true);
  });

  it('is undone by reset', async () => {
    await A('logs/delete', { date: TODAY });
    ctx.emulator.admin.reset();
    const response = await dump('A', TODAY);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    await response.body?.cancel();
  });
});

describe('dump guard', () => {
  it('refuses a second dump within the hour, across both forms', async () => {
    const first = await dump('A', TODAY);
    expect(first.headers.get('content-type')).toMatch(/^text\/plain/);
    await first.body?.cancel();
    const second = await dump('B', '2026-11-21');
    expect(second.status).toBe(429);
    expect(await second.json()).toEqual({ status: 'error', message: expect.stringMatching(/one per hour/) });
  });

  it('does not count a refused dump', async () => {
    await A('logs/delete', { date: TODAY });
    expect(await statusOf(dump('A', TODAY))).toBe(404);
    expect(await statusOf(dump('A', '2026-11-21'))).toBe(200);
  });

  it('is cleared by reset and can be switched off', async () => {
    await (await dump('A', TODAY)).text();
    ctx.emulator.admin.reset();
    expect(await statusOf(dump('A', TODAY))).toBe(200);

    ctx.emulator.admin.setDumpGuard(false);
    expect(await statusOf(dump('A', TODAY))).toBe(200);
    expect(await statusOf(dump('A', TODAY))).toBe(200);
  });
});

describe('big day', () => {
  const bigDay = '2026-11-15';

  it(`streams about ${BIG_DAY_MB} MB of valid lines that agree with its statistics`, async () => {
    const stats: DayStats = (await A('logs/getstats', { date: bigDay })).body;
    const response = await dump('A', bigDay);
    expect(response.headers.get('content-length')).toBeNull();

    let bytes = 0;
    let lines = 0;
    let partial = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      bytes += chunk.length;
      const text = partial + decoder.decode(chunk, { stream: true });
      const parts = text.split('\n');
      partial = parts.pop()!;
      for (const line of parts) {
        if (lines % 5000 === 0) expect(line).toMatch(RAW_LINE);
        lines++;
      }
    }
    expect(partial).toBe('');
    expect(bytes / (BIG_DAY_MB * 1024 * 1024)).toBeGreaterThan(0.9);
    expect(bytes / (BIG_DAY_MB * 1024 * 1024)).toBeLessThan(1.1);
    const counted = Object.values(stats.action).reduce((n, a) => n + a.Allowed! + a.Blocked!, 0);
    expect(counted).toBe(lines);
  });

  it('generates only as fast as the reader reads, and stops when the reader leaves', async () => {
    const total = BIG_DAY_MB * 1024 * 1024;
    const progress = () => ctx.emulator.admin.dumpProgress();
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const dumpsBefore = progress().activeDumps;
    await new Promise<void>((resolve, reject) => {
      const request = get(apiUrl(ctx.emulator, 'A', { action: 'logs/getdump', date: bigDay }), (response) => {
        response.once('data', async () => {
          response.pause();
          try {
            await wait(150);
            const whilePaused = progress().bytesGenerated;
            await wait(150);
            // Only socket buffers' worth is ahead of the reader, far from the whole day.
            expect(progress().bytesGenerated).toBe(whilePaused);
            expect(whilePaused).toBeLessThan(total / 2);
            expect(progress().activeDumps).toBe(dumpsBefore + 1);
            response.destroy();
            await wait(50);
            expect(progress().activeDumps).toBe(dumpsBefore);
            resolve();
          } catch (error) {
            reject(error);
          }
        });
      });
      request.on('error', () => {});
    });
  });
});

describe('statistics-heavy day', () => {
  it('has 24 hours of 5,000 distinct domains each', async () => {
    await ctx.emulator.admin.seedBigStatsDay('2026-10-01');
    expect((await A('logs/list')).body.logs).toContain('2026-10-01');
    const stats: DayStats = (await B('logs/getstats', { date: '2026-10-01' })).body;
    const hours = Object.keys(stats.domains);
    expect(hours).toHaveLength(24);
    for (const hour of hours) {
      const { Allowed, Blocked } = stats.domains[hour]!;
      const names = new Set([...Object.keys(Allowed!), ...Object.keys(Blocked!)]);
      expect(names.size).toBe(5000);
    }
  });

  it('can be seeded over HTTP and is gone after reset', async () => {
    const response = await fetch(`${ctx.emulator.url}/__admin/big-stats-day`, {
      method: 'POST',
      body: JSON.stringify({ date: '2026-10-02' }),
    });
    expect(await response.json()).toEqual({ status: 'success' });
    expect((await A('logs/list')).body.logs).toContain('2026-10-02');
    ctx.emulator.admin.reset();
    expect((await A('logs/list')).body.logs).not.toContain('2026-10-02');
  });
});
