import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { RawLogPanel } from '@/components/logs/RawLogPanel';
import { ApiError } from '@/lib/api/errors';
import type { DnsFilterApi, DumpChunk } from '@/lib/api/types';
import { lastLogDumpItem } from '@/lib/settings/storage';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const line = (n: number, action = 'allowed') =>
  `2024-05-01 10:00:${String(n % 60).padStart(2, '0')} ${n} pass-through: ${action}: 192.168.1.${n % 5}: 5: h${n}.example. (9.9.9.9)`;

function apiWith(getDump: DnsFilterApi['getDump']): DnsFilterApi {
  return { form: 'A', getDump } as unknown as DnsFilterApi;
}

const chunks = (list: DumpChunk[]) =>
  vi.fn(async () => ({
    async *[Symbol.asyncIterator]() {
      yield* list;
    },
  }));

const panelStatus = () => screen.getByRole('status', { name: 'Raw log' });
const loadButton = () => screen.getByRole('button', { name: 'Load raw log' }) as HTMLButtonElement;

describe('RawLogPanel', () => {
  it('loads, shows the lines with a filter, then holds the hourly rule and says until when', async () => {
    const getDump = chunks([
      { lines: [line(1), line(2, 'blocked'), 'garbage'], bytesReceived: 300 },
      { lines: [line(3)], bytesReceived: 400 },
    ]);
    render(<RawLogPanel api={apiWith(getDump)} date="2024-05-01" deleted={false} deletedDays={[]} />);
    await waitFor(() => expect(loadButton().disabled).toBe(false));
    fireEvent.click(loadButton());
    await waitFor(() =>
      expect(panelStatus().textContent).toMatch(/^Loaded the raw log of 2024-05-01: .*4 lines/),
    );
    expect(panelStatus().textContent).toContain(
      '1 line did not follow the log format and is shown as "Not recognised"',
    );

    const table = screen.getByRole('table', { name: 'Raw log lines of 2024-05-01' });
    expect(table.getAttribute('aria-rowcount')).toBe('5');
    expect(screen.getByText('Not recognised', { selector: '[role=cell]' })).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Show' }), { target: { value: 'blocked' } });
    await waitFor(() => expect(table.getAttribute('aria-rowcount')).toBe('2'));
    expect(screen.getByText('h2.example')).toBeTruthy();

    await waitFor(() => expect(loadButton().disabled).toBe(true));
    const note = document.getElementById(loadButton().getAttribute('aria-describedby') ?? '');
    // The time alone, or with its date when the hour runs past midnight (formatClock).
    expect(note?.textContent).toMatch(
      /^Next raw log download allowed at (\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}\.$/,
    );
    expect((await lastLogDumpItem.getValue())?.at).toBeGreaterThan(Date.now() - 60_000);
    expect(getDump).toHaveBeenCalledTimes(1);
  });

  it("shows the service's reason for a failure body and leaves the hour unused", async () => {
    const getDump = vi.fn(async () => {
      throw new ApiError(
        'service',
        'Could not load the raw log of 2024-05-01: The raw log of 2024-05-01 has been deleted',
        {
          reason: 'The raw log of 2024-05-01 has been deleted',
        },
      );
    });
    render(<RawLogPanel api={apiWith(getDump)} date="2024-05-01" deleted={false} deletedDays={[]} />);
    await waitFor(() => expect(loadButton().disabled).toBe(false));
    fireEvent.click(loadButton());
    await waitFor(() => expect(panelStatus().textContent).toContain('has been deleted'));
    expect(await lastLogDumpItem.getValue()).toBeNull();
    await waitFor(() => expect(loadButton().disabled).toBe(false));
  });

  it('refuses to start within the hour of an earlier download (another tab or before a restart)', async () => {
    await lastLogDumpItem.setValue({ at: Date.now() - 10 * 60_000 });
    const getDump = chunks([]);
    render(<RawLogPanel api={apiWith(getDump)} date="2024-05-01" deleted={false} deletedDays={[]} />);
    await waitFor(() => expect(screen.getByText(/^Next raw log download allowed at/)).toBeTruthy());
    expect(loadButton().disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Save to file' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('does not offer a download of a day whose raw lines were deleted', async () => {
    render(<RawLogPanel api={apiWith(chunks([]))} date="2024-05-01" deleted deletedDays={['2024-05-01']} />);
    await waitFor(() => expect(screen.getByText(/raw lines of this day were deleted/)).toBeTruthy());
    expect(loadButton().disabled).toBe(true);
  });
  it('after Load raw log, Save to file saves the loaded log at once, without a second download', async () => {
    const getDump = chunks([
      { lines: [line(1), line(2, 'blocked')], bytesReceived: 200 },
      { lines: ['garbage ünïcode', line(3)], bytesReceived: 320 },
    ]);
    const written: string[] = [];
    const closed = vi.fn(async () => undefined);
    const picker = vi.fn(async () => ({
      createWritable: async () => ({
        write: async (text: string) => void written.push(text),
        close: closed,
        abort: async () => undefined,
      }),
    }));
    Object.defineProperty(window, 'showSaveFilePicker', { value: picker, configurable: true });
    try {
      render(<RawLogPanel api={apiWith(getDump)} date="2024-05-01" deleted={false} deletedDays={[]} />);
      await waitFor(() => expect(loadButton().disabled).toBe(false));
      fireEvent.click(loadButton());
      await waitFor(() => expect(panelStatus().textContent).toMatch(/^Loaded the raw log of 2024-05-01/));
      // The hour is used up: no new download…
      await waitFor(() => expect(loadButton().disabled).toBe(true));
      // …but what is loaded can be saved.
      const save = screen.getByRole('button', { name: 'Save to file' }) as HTMLButtonElement;
      expect(save.disabled).toBe(false);
      const saveNote = document.getElementById(save.getAttribute('aria-describedby') ?? '');
      expect(saveNote?.textContent).toMatch(/loaded below; it needs no new download/);
      fireEvent.click(save);
      await waitFor(() =>
        expect(panelStatus().textContent).toMatch(
          /^Saved dns-log-2024-05-01\.txt: .*4 lines, from the raw log loaded below/,
        ),
      );
      expect(picker).toHaveBeenCalledWith(
        expect.objectContaining({ suggestedName: 'dns-log-2024-05-01.txt' }),
      );
      expect(written.join('')).toBe(
        `${[line(1), line(2, 'blocked'), 'garbage ünïcode', line(3)].join('\n')}\n`,
      );
      expect(closed).toHaveBeenCalledTimes(1);
      expect(getDump).toHaveBeenCalledTimes(1);
    } finally {
      Reflect.deleteProperty(window, 'showSaveFilePicker');
    }
  });
});
