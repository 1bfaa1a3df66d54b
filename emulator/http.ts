/**
 * The HTTP face of the emulator: both API forms, the IP lookup stand-in and the `/__admin/`
 * routes. Every answer carries `Access-Control-Allow-Origin: *` so a browser extension page
 * can read it, including faulted and failed ones.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { z } from 'zod';
import { INVALID_API_KEY, ServiceFailure } from './failure.ts';
import { DEFAULT_ODD_REASON, faultSpecSchema, type PendingFault } from './faults.ts';
import { formAActions } from './forms/a.ts';
import { formBActions } from './forms/b.ts';
import type { ActionHandler } from './forms/common.ts';
import type { ApiForm, EmulatorRuntime } from './runtime.ts';

const FORMS: Record<ApiForm, Record<string, ActionHandler>> = { A: formAActions, B: formBActions };

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Length, Content-Type, Retry-After',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function formOfPath(pathname: string): ApiForm | null {
  if (pathname === '/api' || pathname === '/api/') return 'A';
  if (pathname === '/api/v1' || pathname === '/api/v1/') return 'B';
  return null;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, {
    ...CORS_HEADERS,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json', JSON.stringify(body));
}

export function failureBody(form: ApiForm, reason: string): Record<string, string> {
  return form === 'A' ? { status: 'failed', reason } : { status: 'error', message: reason };
}

function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*',
    // Chrome's Private Network Access preflight asks for this before reaching a loopback server.
    ...(req.headers['access-control-request-private-network']
      ? { 'Access-Control-Allow-Private-Network': 'true' }
      : {}),
    'Access-Control-Max-Age': '600',
  });
  res.end();
}

/** Answers in place of the real action, or returns false when the call should go on normally. */
async function applyFault(fault: PendingFault, form: ApiForm, req: IncomingMessage, res: ServerResponse) {
  switch (fault.kind) {
    case 'slow':
      await sleep(fault.delayMs);
      return false;
    case 'drop':
      req.socket.destroy();
      return true;
    case 'http-500':
      send(res, 500, 'text/plain', 'Internal Server Error');
      return true;
    case 'html':
      send(
        res,
        200,
        'text/html; charset=utf-8',
        '<!DOCTYPE html><html><head><title>Service temporarily unavailable</title></head><body><h1>Service temporarily unavailable</h1><p>Please try again later.</p></body></html>',
      );
      return true;
    case 'malformed-json':
      send(res, 200, 'application/json', '{"status": "success", "profiles": ["default", "kid');
      return true;
    case 'odd-reason':
      sendJson(res, 400, failureBody(form, fault.reason ?? DEFAULT_ODD_REASON));
      return true;
    case 'redirect':
      res.writeHead(302, { ...CORS_HEADERS, Location: fault.location, 'Content-Length': 0 });
      res.end();
      return true;
    case 'http-503-failure':
      sendJson(res, 503, failureBody(form, fault.reason ?? 'Service temporarily unavailable'));
      return true;
    case 'rate-limit':
      res.setHeader('Retry-After', fault.retryAfter);
      sendJson(res, 429, failureBody(form, fault.reason ?? 'Too many requests'));
      return true;
  }
}

async function handleApi(
  runtime: EmulatorRuntime,
  form: ApiForm,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const params = url.searchParams;
  const recorded = Object.fromEntries([...new Set(params.keys())].map((name) => [name, params.get(name)!]));
  delete recorded.apikey;
  runtime.recordCall({ form, action: params.get('action') ?? '', params: recorded, at: Date.now() });

  if (runtime.latencyMs > 0) await sleep(runtime.latencyMs);
  const fault = runtime.faults.take(params.get('action') ?? '');
  if (fault && (await applyFault(fault, form, req, res))) return;

  if (req.method !== 'GET' && req.method !== 'POST') {
    sendJson(res, 405, failureBody(form, 'Method not allowed'));
    return;
  }
  if (params.get('apikey') !== runtime.key) {
    sendJson(res, 403, failureBody(form, INVALID_API_KEY));
    return;
  }
  const action = params.get('action');
  const handler = action ? FORMS[form][action] : undefined;
  if (!handler) {
    sendJson(res, 400, failureBody(form, action ? 'Unknown action' : 'Missing parameter: action'));
    return;
  }
  try {
    const result = await handler(params, runtime.context);
    if (result.type === 'json') {
      sendJson(res, 200, result.body);
      return;
    }
    res.writeHead(200, {
      ...CORS_HEADERS,
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    // pipeline destroys the generator when the reader goes away, so nothing keeps generating.
    pipeline(result.stream, res, () => {});
  } catch (error) {
    if (error instanceof ServiceFailure) {
      sendJson(res, error.httpStatus, failureBody(form, error.message));
    } else {
      sendJson(res, 500, failureBody(form, 'Internal error'));
    }
  }
}

function handleLookup(runtime: EmulatorRuntime, pathname: string, res: ServerResponse): void {
  runtime.lookupCount++;
  if (pathname === '/ip') send(res, 200, 'text/plain; charset=utf-8', runtime.publicIp);
  else sendJson(res, 200, { ip: runtime.publicIp });
}

const MAX_ADMIN_BODY = 64 * 1024;

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > MAX_ADMIN_BODY) throw new Error('body too large');
  }
  return text.trim() === '' ? {} : JSON.parse(text);
}

const latencyBody = z.object({ ms: z.number().nonnegative() });
const publicIpBody = z.object({ ip: z.string() });
const dumpGuardBody = z.object({ enabled: z.boolean() });
const dateBody = z.object({ date: z.string() });

type AdminRoute = (runtime: EmulatorRuntime, body: unknown) => unknown | Promise<unknown>;

const ADMIN_POST: Record<string, AdminRoute> = {
  fault: (runtime, body) => runtime.injectFault(faultSpecSchema.parse(body)),
  'faults/clear': (runtime) => runtime.clearFaults(),
  reset: (runtime) => runtime.reset(),
  latency: (runtime, body) => runtime.setLatency(latencyBody.parse(body).ms),
  'public-ip': (runtime, body) => runtime.setPublicIp(publicIpBody.parse(body).ip),
  'dump-guard': (runtime, body) => runtime.setDumpGuard(dumpGuardBody.parse(body).enabled),
  'big-stats-day': (runtime, body) => runtime.seedBigStatsDay(dateBody.parse(body).date),
};

const ADMIN_GET: Record<string, AdminRoute> = {
  calls: (runtime) => runtime.calls(),
  state: (runtime) => runtime.state(),
  lookups: (runtime) => ({ count: runtime.lookups() }),
  'dump-progress': (runtime) => runtime.dumpProgress(),
};

async function handleAdmin(
  runtime: EmulatorRuntime,
  route: string,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const handler = (req.method === 'POST' ? ADMIN_POST : req.method === 'GET' ? ADMIN_GET : {})[route];
  if (!handler) {
    sendJson(res, 404, { status: 'error', message: `No admin route ${req.method} /__admin/${route}` });
    return;
  }
  try {
    const body = req.method === 'POST' ? await readJsonBody(req) : undefined;
    const result = await handler(runtime, body);
    sendJson(res, 200, result === undefined ? { status: 'success' } : result);
  } catch (error) {
    const message = error instanceof z.ZodError ? z.prettifyError(error) : String(error);
    sendJson(res, 400, { status: 'error', message });
  }
}

export function createRequestListener(runtime: EmulatorRuntime): RequestListener {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    if (req.method === 'OPTIONS') {
      answerPreflight(req, res);
      return;
    }
    const form = formOfPath(url.pathname);
    let handled: Promise<void> | undefined;
    if (form) handled = handleApi(runtime, form, url, req, res);
    else if (url.pathname === '/ip' || url.pathname === '/ip.json') handleLookup(runtime, url.pathname, res);
    else if (url.pathname.startsWith('/__admin/')) {
      handled = handleAdmin(runtime, url.pathname.slice('/__admin/'.length), req, res);
    } else if (url.pathname === '/') {
      sendJson(res, 200, {
        service: 'DNS filtering service emulator',
        formA: '/api',
        formB: '/api/v1/',
        ipLookup: ['/ip', '/ip.json'],
      });
    } else sendJson(res, 404, { status: 'error', message: 'Not found' });
    // A handler that throws after answering must not take the process down.
    handled?.catch(() => {
      if (!res.headersSent) sendJson(res, 500, { status: 'error', message: 'Internal error' });
      else res.destroy();
    });
  };
}
