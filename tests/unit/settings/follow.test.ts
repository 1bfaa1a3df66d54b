import { describe, expect, it } from 'vitest';
import { followableRead, followStored } from '@/lib/settings/follow';

describe('followStored', () => {
  /** An item whose first read answers when the test says so. */
  function slowItem<T>(stored: T) {
    let answer: (value: T) => void = () => {};
    let fail: (error: Error) => void = () => {};
    const listeners = new Set<(value: T) => void>();
    return {
      getValue: () =>
        new Promise<T>((resolve, reject) => {
          answer = () => resolve(stored);
          fail = reject;
        }),
      watch(callback: (value: T) => void) {
        listeners.add(callback);
        return () => listeners.delete(callback);
      },
      answer: () => answer(stored),
      fail: () => fail(new Error('storage unreadable')),
      change: (value: T) => {
        for (const listener of listeners) listener(value);
      },
    };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('gives the stored value, then every change', async () => {
    const item = slowItem('stored');
    const seen: string[] = [];
    followStored(item, (value) => seen.push(value));
    item.answer();
    await settle();
    item.change('changed');
    expect(seen).toEqual(['stored', 'changed']);
  });

  it('a change seen while the first read is on its way wins over that read', async () => {
    const item = slowItem('old');
    const seen: string[] = [];
    followStored(item, (value) => seen.push(value));
    item.change('new');
    item.answer();
    await settle();
    expect(seen).toEqual(['new']);
  });

  it('a failed first read is left unsaid, and changes still come; after stopping, nothing comes', async () => {
    const item = slowItem('stored');
    const seen: string[] = [];
    const stop = followStored(item, (value) => seen.push(value));
    item.fail();
    await settle();
    item.change('changed');
    stop();
    item.change('after stop');
    expect(seen).toEqual(['changed']);
  });

  it('a value read from several items is read again on each change; the later read wins', async () => {
    const key = slowItem('k');
    const connection = slowItem('c');
    const answers: ((value: string) => void)[] = [];
    const combined = followableRead(
      [key, connection],
      () => new Promise<string>((resolve) => answers.push(resolve)),
    );
    const seen: string[] = [];
    const stop = followStored(combined, (value) => seen.push(value));
    connection.change('c2');
    key.change('k2');
    expect(answers).toHaveLength(3);
    // The read started by the last change answers first; the earlier two come too late.
    answers[2]?.('k2+c2');
    answers[0]?.('k+c');
    answers[1]?.('k+c2');
    await settle();
    expect(seen).toEqual(['k2+c2']);
    stop();
    key.change('k3');
    expect(answers).toHaveLength(3);
  });
});
