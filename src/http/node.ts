// Adapts a Web-standard handler to Node's http API, for node:http, Express,
// Connect and Vite's middleware.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { isPlainHost, isPlainHostList } from './host.js';
import { bodyTextOf, problemResponse } from './problem.js';

/** A Web-standard handler; through toNodeListener it also gets the IncomingMessage (its socket: where the request arrived). */
export type FetchHandler = (request: Request, incoming?: IncomingMessage) => Promise<Response>;
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

export interface NodeListenerOptions {
  /**
   * When given, requests whose path it refuses go to `next()` when the
   * listener runs as middleware; without `next()` the handler answers them.
   */
  serves?: (pathname: string) => boolean;
  /**
   * Give each Request a `signal` that aborts when the client goes away (default false: on Node 20 such a signal
   * costs more per request than the whole connect handler, which does not need it).
   */
  abortOnClose?: boolean;
}

/** A request that cannot be mapped faithfully to a Request: answered 400 by toNodeListener. */
export class RequestTargetError extends Error {
  override name = 'RequestTargetError';
}

/**
 * The path and query of the request line (Express's `originalUrl` when mounted), never
 * anything from the Host header. Throws a RequestTargetError for a path a URL parser
 * would rewrite (dot segments, backslashes, a fragment, raw spaces or non-ASCII), so the
 * handler routes exactly the path that any middleware in front of it saw.
 */
export function requestTarget(req: IncomingMessage): string {
  let target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  if (!target.startsWith('/')) {
    // The absolute form (`GET http://host/path`): its path only.
    let absolute: URL;
    try {
      absolute = new URL(target);
    } catch {
      throw new RequestTargetError('the request target is not a path');
    }
    if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:')
      throw new RequestTargetError('the request target is not a path');
    target = absolute.pathname + absolute.search;
  }
  const queryAt = target.indexOf('?');
  const pathname = queryAt < 0 ? target : target.slice(0, queryAt);
  // Concatenated, not resolved: a path like //other.host must stay a path.
  const parsed = new URL(`http://request.target${pathname}`);
  if (parsed.pathname !== pathname || parsed.host !== 'request.target') {
    throw new RequestTargetError(
      'the request path is not in normal form (dot segments, backslashes, fragments or unencoded characters)',
    );
  }
  return target;
}

/** Builds a Request from Node's IncomingMessage. Throws a RequestTargetError for an unusable Host or path. */
export function toRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const socket = req.socket as { encrypted?: boolean };
  const protocol = socket.encrypted ? 'https' : 'http';
  const host = req.headers.host ?? 'localhost';
  if (!isPlainHost(host)) throw new RequestTargetError('the Host header is not a plain host[:port]');
  const forwarded = req.headers['x-forwarded-host'];
  if (forwarded !== undefined && !(Array.isArray(forwarded) ? forwarded : [forwarded]).every(isPlainHostList)) {
    throw new RequestTargetError('the X-Forwarded-Host header is not a plain host[:port]');
  }
  const url = new URL(`${protocol}://${host}${requestTarget(req)}`);
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
  const text = bodyTextOf(response);
  if (!response.body || text !== undefined) {
    if (text !== undefined) headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(response.status, response.statusText || undefined, headers);
    res.end(text);
    return;
  }
  const reader = response.body.getReader();
  let headWritten = false;
  try {
    const first = await reader.read();
    const second = first.done ? first : await reader.read();
    if (second.done) {
      // Internal: a body of one chunk (every JSON answer) goes out with its length in one write, not chunked.
      const body = first.done ? undefined : first.value;
      if (!('content-length' in headers) && !('transfer-encoding' in headers))
        headers['content-length'] = String(body?.byteLength ?? 0);
      res.writeHead(response.status, response.statusText || undefined, headers);
      headWritten = true;
      res.end(body);
      return;
    }
    res.writeHead(response.status, response.statusText || undefined, headers);
    headWritten = true;
    for (
      let chunk: ReadableStreamReadResult<Uint8Array> = first;
      !chunk.done;
      chunk = chunk === first ? second : await reader.read()
    ) {
      if (!res.write(chunk.value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } finally {
    if (!headWritten) res.writeHead(response.status, response.statusText || undefined, headers);
    if (!res.writableEnded) res.end();
  }
}

/** Wraps a Web-standard handler as a Node listener (also usable as Connect/Express middleware). */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): NodeListener {
  if (typeof handler !== 'function') {
    throw new TypeError(
      `connect-provider: toNodeListener(handler) needs the handler function that createConnectHandler returns, got ${handler === null ? 'null' : typeof handler}`,
    );
  }
  if (typeof options !== 'object' || options === null)
    throw new TypeError('connect-provider: toNodeListener options must be an object');
  if (options.serves !== undefined && typeof options.serves !== 'function') {
    throw new TypeError('connect-provider: toNodeListener option serves must be a function (pathname) => boolean');
  }
  return (req, res, next) => {
    let request: Request;
    const controller = options.abortOnClose ? new AbortController() : undefined;
    try {
      if (next && options.serves) {
        const path = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/').split('?')[0];
        if (!options.serves(path)) {
          next();
          return;
        }
      }
      request = toRequest(req, controller?.signal);
    } catch (error) {
      const detail = error instanceof RequestTargetError ? error.message : 'the request could not be read';
      void writeResponse(problemResponse({ status: 400, detail }), res, req);
      return;
    }
    if (controller) {
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
    }
    handler(request, req)
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
