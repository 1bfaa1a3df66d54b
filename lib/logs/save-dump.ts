/**
 * Where "Save to file" writes the raw log. Neither way ever puts the service URL (which carries
 * the API key) into a download: the text is fetched by the client and written by the page.
 *
 * - File System Access (`showSaveFilePicker`, Chromium): streams to the chosen file as the text
 *   arrives; nothing accumulates in the page.
 * - Elsewhere (Firefox): the text is gathered into Blob parts as it arrives (the browser may keep
 *   large blobs on disk) and handed to an `<a download>` click; the `blob:` URL names only the
 *   extension's origin and a random id, so the download history never sees the key.
 */
import { t } from '@/lib/i18n';
import type { DumpSink } from './load-dump';

/** The part of the File System Access API used here (not yet in TypeScript's DOM types): its writable file is a DumpSink. */
type ShowSaveFilePicker = (options: {
  suggestedName: string;
  types?: { description: string; accept: Record<string, string[]> }[];
}) => Promise<{ createWritable(): Promise<DumpSink> }>;

export function dumpFileName(date: string): string {
  return `dns-log-${date}.txt`;
}

/** Blob parts are merged every few megabytes so the page holds few, large parts rather than many strings. */
const BLOB_PART_BYTES = 8 * 1024 * 1024;

/**
 * The text of a raw log loaded into the view, kept so "Save to file" can write what is already
 * loaded: the service allows one download per hour, and saving what the page holds needs none.
 * Gathered into Blob parts as it arrives (the browser may keep large blobs on disk). `text()` is
 * the whole text once the download completed, null while it runs or after it failed.
 */
export function createKeptCopy(): DumpSink & { text(): Blob | null } {
  let parts: Blob[] = [];
  let pending: string[] = [];
  let pendingLength = 0;
  let kept: Blob | null = null;
  const flush = () => {
    if (pending.length === 0) return;
    parts.push(new Blob(pending, { type: 'text/plain' }));
    pending = [];
    pendingLength = 0;
  };
  return {
    async write(text) {
      pending.push(text);
      pendingLength += text.length;
      if (pendingLength >= BLOB_PART_BYTES) flush();
    },
    async close() {
      flush();
      kept = new Blob(parts, { type: 'text/plain;charset=utf-8' });
      parts = [];
    },
    async abort() {
      parts = [];
      pending = [];
      pendingLength = 0;
      kept = null;
    },
    text: () => kept,
  };
}

export interface BlobSinkDeps {
  fileName: string;
  document: Document;
  createObjectURL?: (blob: Blob) => string;
  revokeObjectURL?: (url: string) => void;
}

/** The whole text, once closed, handed to the browser's download under a `blob:` URL that names only the extension. */
export function createBlobSink(deps: BlobSinkDeps): DumpSink {
  const copy = createKeptCopy();
  return {
    ...copy,
    async close() {
      await copy.close();
      const createUrl = deps.createObjectURL ?? ((b: Blob) => URL.createObjectURL(b));
      const revokeUrl = deps.revokeObjectURL ?? ((url: string) => URL.revokeObjectURL(url));
      const url = createUrl(copy.text() as Blob);
      const link = deps.document.createElement('a');
      link.href = url;
      link.download = deps.fileName;
      link.rel = 'noopener';
      link.style.display = 'none';
      deps.document.body.append(link);
      link.click();
      link.remove();
      // The download reads the blob after the click returns; give it time before letting go.
      setTimeout(() => revokeUrl(url), 60_000);
    },
  };
}

/** Writes a kept text to the place the user chose, in slices, without holding it as one string. */
export async function saveKeptCopy(text: Blob, sink: DumpSink): Promise<void> {
  try {
    const decoder = new TextDecoder();
    for (let at = 0; at < text.size; at += BLOB_PART_BYTES) {
      const bytes = new Uint8Array(await text.slice(at, at + BLOB_PART_BYTES).arrayBuffer());
      // `stream: true` keeps a character split between two slices whole.
      const chunk = decoder.decode(bytes, { stream: at + BLOB_PART_BYTES < text.size });
      if (chunk) await sink.write(chunk);
    }
    await sink.close();
  } catch (error) {
    await sink.abort().catch(() => undefined);
    throw error;
  }
}

/**
 * Asks where to save (must run inside the click that asked for it: the picker needs a user
 * gesture). Returns null when the user dismissed the picker.
 */
export async function chooseDumpSink(date: string, win: Window = window): Promise<DumpSink | null> {
  const picker = (win as unknown as { showSaveFilePicker?: ShowSaveFilePicker }).showSaveFilePicker;
  const fileName = dumpFileName(date);
  if (typeof picker !== 'function') return createBlobSink({ fileName, document: win.document });
  try {
    const handle = await picker.call(win, {
      suggestedName: fileName,
      types: [{ description: t('rawLog.textFile'), accept: { 'text/plain': ['.txt', '.log'] } }],
    });
    return await handle.createWritable();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    throw error;
  }
}
