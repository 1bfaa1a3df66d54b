import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Stand-in for the web sites a user visits. The browsers map every host name to 127.0.0.1
 * (Chromium: --host-resolver-rules), so `http://news.example.co.uk:<port>/` reaches this server and
 * the extension sees that host name in the tab's URL.
 */
export interface SiteServer {
  port: number;
  /** `http://<host>:<port><path>` */
  url(host: string, path?: string): string;
  /** Serves `html` at `path` on every host, instead of the default page. */
  setPage(path: string, html: string): void;
  /** Every request received, oldest first, as `host path`. */
  requests(): string[];
  close(): Promise<void>;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}

/** A page that names its own host, so a screenshot shows which site a tab was on. */
function defaultPage(host: string): string {
  const safeHost = escapeHtml(host);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${safeHost}</title></head>
<body><h1>${safeHost}</h1><p>A site page served by the e2e harness.</p></body></html>`;
}

export async function startSiteServer(): Promise<SiteServer> {
  const pages = new Map<string, string>();
  const received: string[] = [];

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const host = (request.headers.host ?? 'localhost').replace(/:\d+$/, '');
    const path = new URL(request.url ?? '/', 'http://placeholder').pathname;
    received.push(`${host} ${path}`);
    if (path === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    const body = pages.get(path) ?? defaultPage(host);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(body);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    port,
    url: (host, path = '/') => `http://${host}:${port}${path.startsWith('/') ? path : `/${path}`}`,
    setPage: (path, html) => {
      pages.set(path, html);
    },
    requests: () => [...received],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
