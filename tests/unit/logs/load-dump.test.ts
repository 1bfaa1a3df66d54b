import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import type { DumpChunk } from '@/lib/api/types';
import { type DumpSink, streamDump } from '@/lib/logs/load-dump';
import { createRecordStore } from '@/lib/logs/record-store';
import { chooseDumpSink, createBlobSink } from '@/lib/logs/save-dump';

const line = (n: number) =>
  `2024-05-01 10:00:${String(n % 60).padStart(2, '0')} ${n} pass-through: allowed: 10.0.0.1: 5: h${n}.example. (9.9.9.9)`;

function apiFrom(chunks: DumpChunk[], opts: { failAfter?: number; error?: unknown } = {}) {
  let pulled = 0;
  const finished = vi.fn();
  return {
    finished,
    api: {
      getDump: vi.fn(async (_date: string, _o?: { signal?: AbortSignal }) => ({
        async *[Symbol.asyncIterator]() {
          try {
            for (const chunk of chunks) {
              if (opts.failAfter !== undefined && pulled === opts.failAfter) throw opts.error;
              pulled++;
              yield chunk;
            }
            if (opts.failAfter === pulled) throw opts.error;
          } finally {
            finished(pulled);
          }
        },
      })),
    },
  };
}

function recordingSink(): DumpSink & { text: string; state: string } {
  return {
    text: '',
    state: 'open',
    async write(text) {
      this.text += text;
    },
    async close() {
      this.state = 'closed';
    },
    async abort() {
      this.state = 'aborted';
    },
  };
}

describe('streamDump', () => {
  it('parses every line, reports bytes and lines, and marks start and end', async () => {
    const { api } = apiFrom([
      { lines: [line(1), line(2)], bytesReceived: 200 },
      { lines: ['not a log line', line(3)], bytesReceived: 400 },
    ]);
    const store = createRecordStore();
    const progress = vi.fn();
    const marks = vi.spyOn(performance, 'mark');
    const outcome = await streamDump({
      api,
      date: '2024-05-01',
      store,
      onProgress: progress,
      progressIntervalMs: 0,
    });
    expect(outcome).toMatchObject({ bytes: 400, lines: 4, stored: 4, unrecognised: 1, truncated: false });
    expect(progress).toHaveBeenLastCalledWith({ bytes: 400, lines: 4, stored: 4, unrecognised: 1 });
    expect(marks.mock.calls.map((c) => c[0])).toEqual(['dump-start', 'dump-done']);
    expect(store.record(3)?.domain).toBe('h3.example');
  });

  it('stops downloading once the view is full and nothing is being saved', async () => {
    const { api, finished } = apiFrom([
      { lines: [line(1), line(2)], bytesReceived: 200 },
      { lines: [line(3), line(4)], bytesReceived: 400 },
      { lines: [line(5)], bytesReceived: 500 },
    ]);
    const outcome = await streamDump({
      api,
      date: '2024-05-01',
      store: createRecordStore({ maxRecords: 3 }),
    });
    expect(outcome).toMatchObject({ stored: 3, truncated: true, stoppedAtLimit: true, bytes: 400 });
    expect(finished).toHaveBeenCalledWith(2);
  });

  it('keeps a copy of a complete download, and drops it when the view filled up and the download stopped', async () => {
    const whole = [
      { lines: [line(1), line(2)], bytesReceived: 200 },
      { lines: [line(3)], bytesReceived: 300 },
    ];
    const complete = recordingSink();
    await streamDump({
      api: apiFrom(whole).api,
      date: '2024-05-01',
      store: createRecordStore(),
      keep: complete,
    });
    expect(complete.text).toBe(`${line(1)}\n${line(2)}\n${line(3)}\n`);
    expect(complete.state).toBe('closed');

    const partial = recordingSink();
    const { api, finished } = apiFrom(whole);
    const outcome = await streamDump({
      api,
      date: '2024-05-01',
      store: createRecordStore({ maxRecords: 1 }),
      keep: partial,
    });
    // The copy does not keep the download going: the view's limit still stops it.
    expect(outcome.stoppedAtLimit).toBe(true);
    expect(finished).toHaveBeenCalledWith(1);
    expect(partial.state).toBe('aborted');
  });

  it('keeps saving the whole text after the view is full', async () => {
    const { api } = apiFrom([
      { lines: [line(1), line(2)], bytesReceived: 200 },
      { lines: [line(3)], bytesReceived: 300 },
    ]);
    const sink = recordingSink();
    const outcome = await streamDump({
      api,
      date: '2024-05-01',
      store: createRecordStore({ maxRecords: 1 }),
      sink,
    });
    expect(outcome).toMatchObject({ stored: 1, lines: 3, truncated: true, stoppedAtLimit: false });
    expect(sink.text).toBe(`${line(1)}\n${line(2)}\n${line(3)}\n`);
    expect(sink.state).toBe('closed');
  });

  it('passes a service failure through and abandons the file', async () => {
    const failure = new ApiError('service', 'The service said: Raw log deleted', {
      reason: 'Raw log deleted',
    });
    const { api } = apiFrom([{ lines: [line(1)], bytesReceived: 100 }], { failAfter: 1, error: failure });
    const sink = recordingSink();
    await expect(streamDump({ api, date: '2024-05-01', store: createRecordStore(), sink })).rejects.toBe(
      failure,
    );
    expect(sink.state).toBe('aborted');
  });

  it('turns a cancel into an "aborted" ApiError and stops reading', async () => {
    const controller = new AbortController();
    const { api, finished } = apiFrom([
      { lines: [line(1)], bytesReceived: 100 },
      { lines: [line(2)], bytesReceived: 200 },
    ]);
    const store = createRecordStore();
    const run = streamDump({
      api,
      date: '2024-05-01',
      store,
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: () => controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
    expect(finished).toHaveBeenCalledWith(1);
    expect(api.getDump).toHaveBeenCalledWith('2024-05-01', { signal: controller.signal });
  });
});

describe('createBlobSink', () => {
  it('hands the whole text to a download link whose URL is a blob URL, never the service URL', async () => {
    let saved: Blob | null = null;
    const clicks: { href: string; download: string }[] = [];
    const origClick = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicks.push({ href: this.getAttribute('href') ?? '', download: this.download });
    };
    try {
      const sink = createBlobSink({
        fileName: 'dns-log-2024-05-01.txt',
        document,
        createObjectURL: (blob) => {
          saved = blob;
          return 'blob:chrome-extension://abc/1234';
        },
        revokeObjectURL: () => undefined,
      });
      await sink.write('line one\n');
      await sink.write('line two\n');
      await sink.close();
    } finally {
      HTMLAnchorElement.prototype.click = origClick;
    }
    expect(clicks).toEqual([
      { href: 'blob:chrome-extension://abc/1234', download: 'dns-log-2024-05-01.txt' },
    ]);
    expect(await (saved as unknown as Blob).text()).toBe('line one\nline two\n');
    expect(document.querySelector('a[download]')).toBeNull();
  });
});

describe('chooseDumpSink', () => {
  const fakeWindow = (picker: unknown) => ({ showSaveFilePicker: picker, document }) as unknown as Window;

  it('streams into the file the user picked, suggesting a name with the day', async () => {
    const written: string[] = [];
    const picker = vi.fn(async () => ({
      createWritable: async () => ({
        write: async (text: string) => {
          written.push(text);
        },
        close: async () => {
          written.push('<closed>');
        },
        abort: async () => undefined,
      }),
    }));
    const sink = await chooseDumpSink('2024-05-01', fakeWindow(picker));
    expect(picker).toHaveBeenCalledWith(expect.objectContaining({ suggestedName: 'dns-log-2024-05-01.txt' }));
    await sink?.write('a\n');
    await sink?.write('b\n');
    await sink?.close();
    expect(written).toEqual(['a\n', 'b\n', '<closed>']);
  });

  it('gives null when the user dismisses the picker, so nothing is downloaded', async () => {
    const picker = async () => {
      throw new DOMException('The user aborted a request.', 'AbortError');
    };
    expect(await chooseDumpSink('2024-05-01', fakeWindow(picker))).toBeNull();
  });

  it('falls back to a download link where the picker does not exist', async () => {
    const downloads: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    const urls = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, {
      createObjectURL: () => 'blob:chrome-extension://abc/1',
      revokeObjectURL: () => undefined,
    });
    try {
      const sink = await chooseDumpSink('2024-05-01', fakeWindow(undefined));
      await sink?.write('a\n');
      await sink?.close();
    } finally {
      click.mockRestore();
      Object.assign(URL, urls);
    }
    expect(downloads).toEqual(['dns-log-2024-05-01.txt']);
  });
});
