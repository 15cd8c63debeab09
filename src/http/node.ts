// Adapts a Web-standard handler to Node's http API, for node:http, Express,
// Connect and Vite's middleware.
// No node: module is imported: connect-provider/server re-exports this file, and a bundle of that entry for Workers,
// Deno or Bun names none. Node's stream module is looked up where a request is adapted, which only happens on Node.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPlainHost } from './host.js';
import { parseUrl } from '../shared/url.js';
import type { ResponseParts } from './response-parts.js';
import { problemParts } from './http-problem.js';

/** A Web-standard handler; through toNodeListener it also gets the IncomingMessage (its socket: where the request arrived). */
export type FetchHandler = (request: Request, incoming?: IncomingMessage) => Promise<Response>;
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

export interface NodeListenerOptions {
  /**
   * When given, requests whose path it refuses go to `next()` when the
   * listener runs as middleware; without `next()` the handler answers them.
   */
  serves?: (pathname: string) => boolean;
}

/** A request that cannot be mapped faithfully to a Request: answered 400 by toNodeListener. */
export class RequestTargetError extends Error {
  override name = 'RequestTargetError';
}

/** The request line's target (Express's `originalUrl` when mounted): a path and query, or the absolute form. */
function targetOf(req: IncomingMessage): string {
  const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  if (target.startsWith('/')) return target;
  // The absolute form (`GET http://host/path`): its path only.
  const absolute = parseUrl(target);
  if (!absolute) throw new RequestTargetError('the request target is not a path');
  if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:')
    throw new RequestTargetError('the request target is not a path');
  return absolute.pathname + absolute.search;
}

/**
 * The request's absolute URL: its scheme, its Host (checked) and the path and query of the request line, never
 * anything else from the Host header. Throws a RequestTargetError for an unusable Host, and for a path a URL parser
 * would rewrite (dot segments, backslashes, a fragment, raw spaces or non-ASCII), so the handler routes exactly the
 * path that any middleware in front of it saw.
 */
function requestUrl(req: IncomingMessage): string {
  const socket = req.socket as { encrypted?: boolean } | undefined;
  const protocol = socket?.encrypted ? 'https' : 'http';
  const host = req.headers.host ?? 'localhost';
  // The Host makes the URL; X-Forwarded-Host is the handler's to judge (server/guard.ts).
  if (!isPlainHost(host)) throw new RequestTargetError('the Host header is not a plain host[:port]');
  const target = targetOf(req);
  const queryAt = target.indexOf('?');
  const pathname = queryAt < 0 ? target : target.slice(0, queryAt);
  // Concatenated, not resolved: a path like //other.host stays a path, since the authority ends at the first slash.
  const url = parseUrl(`${protocol}://${host}${target}`);
  // A plain shape that is still no address: a port past 65535, an IPv6 address that does not parse.
  if (!url) throw new RequestTargetError('the Host header is not a usable host[:port]');
  if (url.pathname !== pathname) {
    throw new RequestTargetError(
      'the request path is not in normal form (dot segments, backslashes, fragments or unencoded characters)',
    );
  }
  return url.href;
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

function requestInit(req: IncomingMessage, headers: Headers, signal?: AbortSignal): RequestInit {
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  let body: BodyInit | undefined;
  const parsed = (req as { body?: unknown }).body;
  if (hasBody && parsed !== undefined && req.readableEnded) {
    // A body parser (express.json(), ...) ran first and consumed the stream: rebuild the body from its result.
    body = typeof parsed === 'string' || parsed instanceof Uint8Array ? (parsed as BodyInit) : JSON.stringify(parsed);
  } else if (hasBody) {
    body = process.getBuiltinModule('node:stream').Readable.toWeb(req) as ReadableStream<Uint8Array>;
  }
  // Node's fetch needs duplex for a streamed body; not in the DOM types.
  return { method, headers, body, signal, duplex: 'half' } as RequestInit;
}

/** A signal that aborts when the client goes away: the response closes before all of it was written. */
function clientGoneSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed) controller.abort();
  else res.once('close', () => res.writableFinished || controller.abort());
  return controller.signal;
}

/** Builds a Request from Node's IncomingMessage. Throws a RequestTargetError for an unusable Host or path. */
export function toRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  return new Request(requestUrl(req), requestInit(req, headersOf(req), signal));
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
  if (!response.body) {
    res.writeHead(response.status, response.statusText || undefined, headers);
    res.end();
    return;
  }
  // A stream that fails is not ended as if complete: the error goes to the caller, which answers 500 while nothing
  // is written, and cuts the connection after.
  const reader = response.body.getReader();
  const first = await reader.read();
  const second = first.done ? first : await reader.read();
  if (second.done) {
    // A body of one chunk (every JSON answer) goes out with its length in one write, not chunked.
    const body = first.done ? undefined : first.value;
    if (!('content-length' in headers) && !('transfer-encoding' in headers))
      headers['content-length'] = String(body?.byteLength ?? 0);
    res.writeHead(response.status, response.statusText || undefined, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, response.statusText || undefined, headers);
  for (let chunk = first; !chunk.done; chunk = chunk === first ? second : await reader.read()) {
    // Back-pressure: wait until the socket takes more. A client gone meanwhile ends the copy (and the stream).
    if (!res.write(chunk.value)) await drained(res);
    if (res.destroyed) {
      await reader.cancel().catch(() => {});
      return;
    }
  }
  res.end();
}

/** Resolves once the response can take more data, or has closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes the listener's own answers (400, 500) to Node's ServerResponse in one write. */
function writeResponseParts(answer: ResponseParts, res: ServerResponse, req: IncomingMessage): void {
  const { headers } = answer;
  // As in writeResponse: an answer sent before the request body was read must close the connection.
  if (!req.complete) headers.connection = 'close';
  // With its length, not chunked: writeHead fixes the head before end() sees the body.
  if (answer.body !== null) headers['content-length'] = String(Buffer.byteLength(answer.body));
  res.writeHead(answer.status, headers);
  res.end(answer.body ?? undefined);
}

/** What the listener's own answers carry, as the connect handler's do. */
const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

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
    try {
      if (next && options.serves) {
        const path = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/').split('?')[0];
        if (!options.serves(path)) {
          next();
          return;
        }
      }
      request = toRequest(req, clientGoneSignal(res));
    } catch (error) {
      const detail = error instanceof RequestTargetError ? error.message : 'the request could not be read';
      writeResponseParts(problemParts({ status: 400, detail }, NOSNIFF), res, req);
      return;
    }
    handler(request, req)
      .then((response) => writeResponse(response, res, req))
      .catch((error: unknown) => {
        // A failure after the head went out cuts the connection, so the client never takes the answer as complete.
        if (res.headersSent) res.destroy(error instanceof Error ? error : undefined);
        // The handler itself should never throw: a bare 500 without the error's text.
        else
          writeResponseParts(problemParts({ status: 500, detail: 'the server failed to answer' }, NOSNIFF), res, req);
      });
  };
}
