// Adapts a Web-standard handler to Node's http API, for node:http, Express,
// Connect and Vite's middleware.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { isPlainHost, isPlainHostList } from './host.js';
import { answerHandlerOf, type Answer } from './answer.js';
import { bodyTextOf, problemAnswer } from './problem.js';

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
   * @deprecated Without effect: every Request's `signal` aborts when the client goes away. The Request is built on
   * first use, so the signal costs nothing until it is read.
   */
  abortOnClose?: boolean;
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
  let absolute: URL;
  try {
    absolute = new URL(target);
  } catch {
    throw new RequestTargetError('the request target is not a path');
  }
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
  if (!isPlainHost(host)) throw new RequestTargetError('the Host header is not a plain host[:port]');
  const forwarded = req.headers['x-forwarded-host'];
  if (forwarded !== undefined && !(Array.isArray(forwarded) ? forwarded : [forwarded]).every(isPlainHostList)) {
    throw new RequestTargetError('the X-Forwarded-Host header is not a plain host[:port]');
  }
  const target = targetOf(req);
  const queryAt = target.indexOf('?');
  const pathname = queryAt < 0 ? target : target.slice(0, queryAt);
  // Concatenated, not resolved: a path like //other.host stays a path, since the authority ends at the first slash.
  let url: URL;
  try {
    url = new URL(`${protocol}://${host}${target}`);
  } catch {
    // A plain shape that is still no address: a port past 65535, an IPv6 address that does not parse.
    throw new RequestTargetError('the Host header is not a usable host[:port]');
  }
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
    body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
  }
  // Node's fetch needs duplex for a streamed body; not in the DOM types.
  return { method, headers, body, signal, duplex: 'half' } as RequestInit;
}

/** Builds a Request from Node's IncomingMessage. Throws a RequestTargetError for an unusable Host or path. */
export function toRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  return new Request(requestUrl(req), requestInit(req, headersOf(req), signal));
}

// A Request built on first use, for toNodeListener. On Node 20 a Request costs more than the whole connect
// handler (its AbortSignal alone does), and most requests need only the method, the URL and a few headers: those
// three are read straight from the IncomingMessage; reading anything else (body, signal, clone(), text()...)
// builds the full Request once, whose signal aborts when the client goes away before the answer is written.
const kLazy = Symbol('connect-provider.lazyRequest');

interface LazyState {
  req: IncomingMessage;
  res: ServerResponse;
  url: string;
  headers?: Headers;
  request?: Request;
}

type LazyRequest = Request & { [kLazy]: LazyState };

/** Whether the client went away: its response closed before it was written. */
function clientGone(res: ServerResponse): boolean {
  return res.destroyed && !res.writableFinished;
}

function fullRequest(lazy: LazyRequest): Request {
  const state = lazy[kLazy];
  if (!state.request) {
    const controller = new AbortController();
    const { res } = state;
    if (clientGone(res)) controller.abort();
    else if (!res.writableFinished) res.once('close', () => res.writableFinished || controller.abort());
    state.request = new Request(state.url, requestInit(state.req, lazy.headers, controller.signal));
  }
  return state.request;
}

const READ_FROM_MESSAGE = new Set<PropertyKey>(['method', 'url', 'headers']);

const lazyRequestPrototype: object = (() => {
  const proto = Object.create(Request.prototype) as Record<PropertyKey, unknown>;
  const forward = (name: PropertyKey, descriptor: PropertyDescriptor) => {
    if (typeof descriptor.value === 'function') {
      Object.defineProperty(proto, name, {
        value(this: LazyRequest, ...args: unknown[]) {
          const full = fullRequest(this) as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>;
          return full[name](...args);
        },
      });
    } else if (descriptor.get) {
      Object.defineProperty(proto, name, {
        get(this: LazyRequest) {
          return (fullRequest(this) as unknown as Record<PropertyKey, unknown>)[name];
        },
      });
    }
  };
  for (const name of Reflect.ownKeys(Request.prototype)) {
    if (name === 'constructor' || name === Symbol.toStringTag || READ_FROM_MESSAGE.has(name)) continue;
    forward(name, Object.getOwnPropertyDescriptor(Request.prototype, name)!);
  }
  // Node 20's own fetch and Request constructor read a Request's state through symbol-keyed fields: forwarded
  // too, so fetch(request) and new Request(request) work (on later Node versions they need request.clone()).
  const withSignal = new Request('http://localhost/', { signal: new AbortController().signal });
  for (const name of Object.getOwnPropertySymbols(withSignal)) forward(name, { get: () => undefined });
  Object.defineProperties(proto, {
    method: {
      get(this: LazyRequest) {
        return this[kLazy].req.method ?? 'GET';
      },
    },
    url: {
      get(this: LazyRequest) {
        return this[kLazy].url;
      },
    },
    headers: {
      get(this: LazyRequest) {
        const state = this[kLazy];
        return (state.headers ??= headersOf(state.req));
      },
    },
  });
  return proto;
})();

/**
 * A Request for Node's IncomingMessage, built on first use: its method, URL and headers come straight from the
 * message. Throws a RequestTargetError for an unusable Host or path, as toRequest does.
 */
function lazyRequest(req: IncomingMessage, res: ServerResponse): Request {
  const request = Object.create(lazyRequestPrototype) as LazyRequest;
  Object.defineProperty(request, kLazy, { value: { req, res, url: requestUrl(req) } satisfies LazyState });
  return request;
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
  // A stream that fails is not ended as if complete: the error goes to the caller, which answers 500 while nothing
  // is written, and cuts the connection after.
  const reader = response.body.getReader();
  const first = await reader.read();
  const second = first.done ? first : await reader.read();
  if (second.done) {
    // Internal: a body of one chunk (every JSON answer) goes out with its length in one write, not chunked.
    const body = first.done ? undefined : first.value;
    if (!('content-length' in headers) && !('transfer-encoding' in headers))
      headers['content-length'] = String(body?.byteLength ?? 0);
    res.writeHead(response.status, response.statusText || undefined, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, response.statusText || undefined, headers);
  for (
    let chunk: ReadableStreamReadResult<Uint8Array> = first;
    !chunk.done;
    chunk = chunk === first ? second : await reader.read()
  ) {
    if (!res.write(chunk.value)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/** Writes an Answer to Node's ServerResponse in one write. */
export function writeAnswer(answer: Answer, res: ServerResponse, req?: IncomingMessage): void {
  const { headers } = answer;
  // As in writeResponse: an answer sent before the request body was read must close the connection.
  if (req && !req.complete) headers.connection = 'close';
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
  // A handler made here (createConnectHandler, the emulator) also answers without a Response: written directly.
  const answer = answerHandlerOf(handler);
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
      request = lazyRequest(req, res);
    } catch (error) {
      const detail = error instanceof RequestTargetError ? error.message : 'the request could not be read';
      writeAnswer(problemAnswer({ status: 400, detail }, NOSNIFF), res, req);
      return;
    }
    const failed = (error: unknown) => {
      if (res.headersSent) {
        res.destroy(error as Error);
        return;
      }
      // Internal: the handler itself should never throw; answer a bare 500 without the error's text.
      writeAnswer(problemAnswer({ status: 500, detail: 'the server failed to answer' }, NOSNIFF), res, req);
    };
    if (answer) {
      answer(request, () => clientGone(res))
        .then((a) => writeAnswer(a, res, req))
        .catch(failed);
      return;
    }
    handler(request, req)
      .then((response) => writeResponse(response, res, req))
      .catch(failed);
  };
}
