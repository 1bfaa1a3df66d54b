import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { useConfirm } from '@/components/ConfirmDialog';
import { VirtualList, visibleRange } from '@/components/VirtualList';

afterEach(cleanup);

describe('visibleRange', () => {
  it.each([
    // scrollTop, viewport, rowHeight, count, overscan -> start, end
    [0, 360, 36, 10_000, 0, 0, 11],
    [0, 360, 36, 5, 8, 0, 5],
    [3600, 360, 36, 10_000, 8, 92, 119],
    [359_964, 360, 36, 10_000, 2, 9997, 10_000],
    [-50, 360, 36, 100, 0, 0, 11],
    [0, 0, 36, 0, 8, 0, 0],
  ])('scrollTop %d, viewport %d', (scrollTop, viewport, rowHeight, count, overscan, start, end) => {
    expect(visibleRange(scrollTop, viewport, rowHeight, count, overscan)).toEqual({ start, end });
  });
});

describe('VirtualList', () => {
  it('renders a window of rows that tell their place in the whole list, and follows scrolling', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => `item ${i}`);
    render(
      <VirtualList
        items={items}
        label="Things"
        rowHeight={20}
        visibleRows={10}
        overscan={2}
        itemKey={(item) => item}
        renderItem={(item) => item}
      />,
    );
    const list = screen.getByRole('list', { name: 'Things' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual(items.slice(0, 13));
    expect(rows[12]?.getAttribute('aria-posinset')).toBe('13');
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('1000');

    const box = list.parentElement as HTMLElement;
    box.scrollTop = 5000;
    fireEvent.scroll(box);
    await waitFor(() => expect(within(list).getAllByRole('listitem')[0]?.textContent).toBe('item 248'));
  });
});

function Asker({ onAnswer }: { onAnswer: (ok: boolean) => void }) {
  const { confirm, dialog } = useConfirm();
  return (
    <>
      <button
        type="button"
        onClick={async () =>
          onAnswer(await confirm({ title: 'Delete it?', message: 'Really.', confirmLabel: 'Delete' }))
        }
      >
        Ask
      </button>
      {dialog}
    </>
  );
}

describe('useConfirm', () => {
  it.each([
    ['the confirming button', true],
    ['Cancel', false],
    ['Escape', false],
  ])('answers %s with %s and closes', async (how, expected) => {
    const answers: boolean[] = [];
    render(<Asker onAnswer={(ok) => answers.push(ok)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete it?' });
    expect(document.activeElement?.textContent).toBe('Cancel');
    if (how === 'Escape') fireEvent(dialog, new Event('cancel', { cancelable: true }));
    else
      fireEvent.click(within(dialog).getByRole('button', { name: how === 'Cancel' ? 'Cancel' : 'Delete' }));
    await waitFor(() => expect(answers).toEqual([expected]));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
