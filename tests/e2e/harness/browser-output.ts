import type { ChildProcess } from 'node:child_process';

/**
 * Everything the browser process prints, kept from launch on. Extension console messages reach it
 * from every extension page and the background worker alike (Chromium: --enable-logging=stderr;
 * Firefox: devtools.console.stdout.content), including messages logged before a test could attach
 * a listener, which per-page `console` events would miss.
 */
export interface BrowserOutput {
  /** All lines, each prefixed with the seconds since launch. */
  lines(): string[];
  /** Only the lines that are console messages or errors of extension code. */
  consoleLines(): string[];
}

export function captureBrowserOutput(
  process: ChildProcess | null,
  isConsoleLine: (line: string) => boolean,
): BrowserOutput {
  const started = Date.now();
  const lines: string[] = [];
  const consoleLines: string[] = [];
  const pending = new Map<NodeJS.ReadableStream, string>();

  const onData = (stream: NodeJS.ReadableStream) => (chunk: Buffer | string) => {
    const text = (pending.get(stream) ?? '') + chunk.toString();
    const parts = text.split('\n');
    pending.set(stream, parts.pop() ?? '');
    const stamp = `[+${((Date.now() - started) / 1000).toFixed(3)}s]`;
    for (const line of parts) {
      if (!line.trim()) continue;
      lines.push(`${stamp} ${line}`);
      if (isConsoleLine(line)) consoleLines.push(`${stamp} ${line}`);
    }
  };
  for (const stream of [process?.stdout, process?.stderr]) {
    stream?.on('data', onData(stream));
  }
  return { lines: () => [...lines], consoleLines: () => [...consoleLines] };
}

/** Chromium logs console calls as `[pid:tid:time:INFO:CONSOLE:12] "text", source: chrome-extension://… (12)`. */
export const isChromiumConsoleLine = (line: string) =>
  /:CONSOLE[:(]/.test(line) || line.includes('chrome-extension://');

/** Firefox prints `console.log: …`, `console.error: …` and `JavaScript error: moz-extension://…`. */
export const isFirefoxConsoleLine = (line: string) =>
  /^console\.\w+:/.test(line) || line.includes('moz-extension://');
