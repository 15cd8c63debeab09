// Adapts a Web-standard handler to Node's http API, for node:http, Express,
// Connect and Vite's middleware.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { problemResponse } from './problem.js';

export type FetchHandler = (request: Request) => Promise<Response>;
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

export interface NodeListenerOptions {
  /**
   * When given, requests whose path it refuses go to `next()` when the
   * listener runs as middleware; without `next()` the handler answers them.
   */
  serves?: (pathname: string) => boolean;
}

/** Builds a Request from Node's IncomingMessage. */
export function toRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const socket = req.socket as { encrypted?: boolean };
  const protocol = socket.encrypted ? 'https' : 'http';
  const host = req.headers.host ?? 'localhost';
  // Express and Connect strip a mount path from req.url; originalUrl keeps it.
  const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  // Concatenated, not resolved: a path like //other.host must stay a path.
  const url = new URL(`${protocol}://${host}${path.startsWith('/') ? path : `/${path}`}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  let body: BodyInit | undefined;
  const parsed = (req as { body?: unknown }).body;
  if (hasBody && parsed !== undefined && req.readableEnded) {
    // A body parser (express.json(), ...) ran first and consumed the stream: rebuild the body from its result.
    body = typeof parsed === 'string' || parsed instanceof Uint8Array ? (parsed as BodyInit) : JSON.stringify(parsed);
  } else if (hasBody) {
    body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
  }
  return new Request(url, {
    method,
    headers,
    body,
    signal,
    // @ts-expect-error Node's fetch needs duplex for a streamed body; not in the DOM types.
    duplex: 'half',
  });
}

/** Writes a Response to Node's ServerResponse. */
export async function writeResponse(response: Response, res: ServerResponse, req?: IncomingMessage): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  // An answer sent before the request body was read (413, 415, 401...) must
  // close the connection, or the unread body poisons the next request on it.
  if (req && !req.complete) headers.connection = 'close';
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie' || (name === 'connection' && headers.connection)) return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } finally {
    res.end();
  }
}

/** Wraps a Web-standard handler as a Node listener (also usable as Connect/Express middleware). */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): NodeListener {
  return (req, res, next) => {
    if (next && options.serves) {
      const path = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/').split('?')[0];
      if (!options.serves(path)) {
        next();
        return;
      }
    }
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    let request: Request;
    try {
      request = toRequest(req, controller.signal);
    } catch {
      void writeResponse(problemResponse({ status: 400, detail: 'the request could not be read' }), res);
      return;
    }
    handler(request)
      .then((response) => writeResponse(response, res, req))
      .catch((error: unknown) => {
        if (res.headersSent) {
          res.destroy(error as Error);
          return;
        }
        // Internal: the handler itself should never throw; answer a bare 500 without the error's text.
        void writeResponse(problemResponse({ status: 500, detail: 'the server failed to answer' }), res, req);
      });
  };
}
