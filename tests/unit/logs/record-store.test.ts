import { describe, expect, it } from 'vitest';
import { createRecordStore } from '@/lib/logs/record-store';

const line = (time: string, action: string, ip: string, domain: string, seq = 12, port = 40000) =>
  `2024-05-01 ${time} ${seq} pass-through: ${action}: ${ip}: ${port}: ${domain}. (185.228.168.168)`;

function filled() {
  const store = createRecordStore();
  store.addLine(line('00:00:01', 'allowed', '192.168.1.20', 'www.example.com'));
  store.addLine(line('00:00:02', 'blocked', '192.168.1.20', 'ads.example.net'));
  store.addLine('garbage that is not a log line');
  store.addLine(line('13:45:59', 'blocked', '10.0.0.12', 'Tracker.Example.net'));
  store.addLine(line('23:59:59', 'allowed', '10.0.0.12', 'www.example.com', 2 ** 40, 2 ** 33));
  return store;
}

describe('record store', () => {
  it('keeps every field of a line and gives it back', () => {
    const store = filled();
    expect(store.size).toBe(5);
    expect(store.record(1)).toEqual({
      index: 1,
      kind: 'blocked',
      dateTime: '2024-05-01 00:00:02',
      sequence: 12,
      clientIp: '192.168.1.20',
      clientNumber: 40000,
      domain: 'ads.example.net',
      resolver: '185.228.168.168',
      text: null,
    });
  });

  it('keeps numbers beyond 32 bits exactly', () => {
    expect(filled().record(4)).toMatchObject({
      sequence: 2 ** 40,
      clientNumber: 2 ** 33,
      dateTime: '2024-05-01 23:59:59',
    });
  });

  it('counts unrecognised lines and shows their text', () => {
    const store = filled();
    expect(store.counts).toEqual({ allowed: 2, blocked: 2, unrecognised: 1 });
    expect(store.record(2)).toMatchObject({ kind: 'unrecognised', text: 'garbage that is not a log line' });
  });

  it('stops keeping the text of unrecognised lines past its limit but still counts them', () => {
    const store = createRecordStore({ maxKeptUnrecognised: 1 });
    store.addLine('first bad line');
    store.addLine('second bad line');
    expect(store.counts.unrecognised).toBe(2);
    expect(store.record(0)?.text).toBe('first bad line');
    expect(store.record(1)).toMatchObject({ kind: 'unrecognised', text: null });
  });

  it.each([
    [{}, [0, 1, 2, 3, 4]],
    [{ kind: 'blocked' as const }, [1, 3]],
    [{ kind: 'allowed' as const }, [0, 4]],
    [{ kind: 'unrecognised' as const }, [2]],
    [{ domainContains: 'EXAMPLE.NET' }, [1, 3]],
    [{ domainContains: ' tracker ' }, [3]],
    [{ clientIp: '10.0.0.' }, [3, 4]],
    [{ kind: 'allowed' as const, clientIp: '192.168.1.20', domainContains: 'www' }, [0]],
    [{ domainContains: 'nowhere' }, []],
  ])('filter %j matches records %j', (filter, expected) => {
    expect(Array.from(filled().matching(filter))).toEqual(expected);
  });

  it('can filter only the records added since a given index (incremental view updates)', () => {
    expect(Array.from(filled().matching({ kind: 'blocked' }, 2))).toEqual([3]);
  });

  it('stops at its line limit and says why', () => {
    const store = createRecordStore({ maxRecords: 2 });
    expect(store.addLine(line('00:00:01', 'allowed', '10.0.0.1', 'a.example'))).toBe('stored');
    expect(store.addLine('junk')).toBe('unrecognised');
    expect(store.addLine(line('00:00:03', 'allowed', '10.0.0.1', 'a.example'))).toBe('full');
    expect(store.size).toBe(2);
    expect(store.fullReason).toBe('records');
  });

  it('stops when too many distinct names would be kept', () => {
    const store = createRecordStore({ maxDistinct: 5 });
    expect(store.addLine(line('00:00:01', 'allowed', '10.0.0.1', 'a.example'))).toBe('stored');
    // Three names are kept; a line with the same names costs none and is still taken …
    expect(store.addLine(line('00:00:02', 'blocked', '10.0.0.1', 'a.example'))).toBe('stored');
    // … a line with new ones would pass the limit of five.
    expect(store.addLine(line('00:00:03', 'allowed', '10.0.0.2', 'b.example'))).toBe('full');
    expect(store.fullReason).toBe('distinct');
    expect(store.size).toBe(2);
  });

  it('grows past one block of columns without losing records', () => {
    const store = createRecordStore();
    for (let i = 0; i < 70_000; i++)
      store.addLine(line('01:02:03', i % 2 ? 'blocked' : 'allowed', '10.0.0.1', `h${i % 10}.example`, i));
    expect(store.size).toBe(70_000);
    expect(store.record(69_999)).toMatchObject({ sequence: 69_999, kind: 'blocked', domain: 'h9.example' });
    expect(store.matching({ kind: 'blocked' }).length).toBe(35_000);
  });

  it('answers null outside its range', () => {
    expect(filled().record(5)).toBeNull();
    expect(filled().record(-1)).toBeNull();
  });
});
