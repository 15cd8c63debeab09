// createEmulator: a local implementation of the platform, as a Web-standard
// handler, a Node listener (node:http, Connect, Vite) and a server it can
// start itself. This module wires the pieces: routing, CORS, problems, the
// state's file and the server; each concern lives in its own module.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { statusTitle } from '../shared/problem.js';
import {
  HttpProblem,
  jsonResponse,
  pathnameOf,
  problemResponse,
  readJsonBody,
  type ProblemInit,
} from '../http/problem.js';
import { toNodeListener, type NodeListener } from '../http/node.js';
import { isClientGone } from '../http/client-gone.js';
import { createAuth, type TokenRequest } from './auth.js';
import { handleCallback, handleConsent, PROBLEM_TYPES, type Env } from './consent.js';
import { addCorsHeaders, corsPolicy, describeCors, preflight } from './cors.js';
import { boundIssue, cut, jsonDepth, LIMITS, limitIssues } from './limits.js';
import { loadContract, type OperationInfo } from './openapi.js';
import { handlers, type OperationContext, type OperationId } from './operations.js';
import { handleMedia, isMediaPath } from './media.js';
import { errorPage } from './pages.js';
import { seedState } from './seed.js';
import {
  lockDataFile,
  readStateFile,
  removeStrayTemps,
  stateWriter,
  writeStateFile,
  type EmulatorState,
} from './store.js';

export interface EmulatorOptions {
  /** The key X-Api-Key must carry (default `dev-api-key`). */
  apiKey?: string;
  /** Milliseconds from consent to the connection turning working / bad_credentials (default 1500). */
  verifyDelay?: number;
  /**
   * Keep state in this JSON file across restarts (written atomically; a change is on disk before its answer; one
   * emulator per file, by an exclusive lock). Default: memory only.
   */
  dataFile?: string;
  /**
   * The origin browsers reach the emulator at, for the URLs it hands out (consent links, problems' `instance`,
   * `Location`). Default: the address listen() serves at (on 0.0.0.0 or ::, the address each connection reached),
   * or, when mounted in another server, the address that server accepted the connection on. Never the Host header.
   */
  publicUrl?: string;
  /** How oauth-connect and oauth-update answer the URL: a JSON string (default, as the spec) or text/plain (as the real service). */
  urlFormat?: 'json' | 'text';
  /** Secret that signs Bearer JWTs. Default: a random one, kept in the data file (or per emulator without one). */
  jwtSecret?: string;
  /** Largest request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /**
   * Origins allowed to call the emulator from a browser (CORS); `'*'` (alone or in the list) is any. Default: with
   * the default API key (public knowledge), loopback origins only (http(s)://localhost, *.localhost, 127.x, [::1],
   * any port) and no private-network access; with a key of one's own, any origin.
   */
  corsOrigins?: readonly string[] | '*';
  /** The clock (for tests). */
  now?: () => Date;
}

export interface ListenInfo {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** e.g. http://127.0.0.1:4010/v1 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:4010/search/v1 */
  searchUrl: string;
}

export interface Emulator {
  /** Answers one request (Web-standard). */
  handle(request: Request): Promise<Response>;
  /** The same as a Node listener / Connect middleware: requests it does not serve go to next(). */
  listener: NodeListener;
  /** Starts an HTTP server (default 127.0.0.1 and a free port). */
  listen(port?: number, host?: string): Promise<ListenInfo>;
  /** Stops the server started by listen(), if any, and waits for the data file's last write. */
  close(): Promise<void>;
  /** The API key X-Api-Key must carry. */
  readonly apiKey: string;
  /**
   * The origins CORS answers, as the start banner says them: '*' (any), the listed origins joined by ', ', or, by
   * default with the default key, a text starting 'loopback only'.
   */
  readonly corsOrigins: string;
  /** A Bearer token for org_demo, valid for 30 days. */
  readonly bearerToken: string;
  /** Issues a Bearer JWT (HS256) that the emulator accepts. */
  issueToken(claims?: TokenRequest): string;
  /** The live state (read it in tests; change it only through the API). */
  readonly state: EmulatorState;
  /** Where listen() serves, once started. */
  readonly info: ListenInfo | undefined;
  /** Resolves once every change so far is in the data file (at once without one). */
  flush(): Promise<void>;
}

/** The API key of every emulator started without one: public knowledge, so CORS answers only loopback origins. */
export const DEFAULT_API_KEY = 'dev-api-key';

/** Path prefixes the emulator serves; the Node listener passes anything else to next(). */
const OWN_PATHS = ['/v1/', '/search/v1/', '/consent/'];

export function ownsPath(pathname: string): boolean {
  return (
    OWN_PATHS.some((p) => pathname.startsWith(p)) ||
    pathname === '/v1' ||
    pathname === '/search/v1' ||
    pathname === '/oauth/callback' ||
    isMediaPath(pathname)
  );
}

function wantsHtml(request: Request): boolean {
  return /text\/html/.test(request.headers.get('accept') ?? '');
}

function originOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Where a request arrived, set by the Node listener from its socket (not from its headers). */
const arrivedAt = new WeakMap<Request, string>();

/** A problem whose detail and issues are bounded (LIMITS), whatever raised it: no answer echoes a request whole. */
function bounded(init: ProblemInit): ProblemInit {
  const out: ProblemInit = { ...init };
  if (typeof init.detail === 'string') out.detail = cut(init.detail, LIMITS.problemDetailChars);
  if (Array.isArray(init.issues)) out.issues = init.issues.slice(0, LIMITS.problemIssues).map(boundIssue);
  return out;
}

/** Any operation's answer, as the dispatcher sees it. */
type AnyAnswer = { status: number; body?: unknown; headers?: Record<string, string> };

function toResponse(answer: AnyAnswer, urlFormat: 'json' | 'text'): Response {
  if (answer.status === 204) return new Response(null, { status: 204, headers: answer.headers });
  if (typeof answer.body === 'string' && urlFormat === 'text') {
    return new Response(answer.body, {
      status: answer.status,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  return jsonResponse(answer.body, answer.status, answer.headers);
}

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  if (apiKey === '') throw new TypeError('connect-provider emulator: apiKey must not be empty');
  const verifyDelayMs = options.verifyDelay ?? 1500;
  if (!Number.isFinite(verifyDelayMs) || verifyDelayMs < 0) {
    throw new TypeError('connect-provider emulator: verifyDelay must be a number of milliseconds >= 0');
  }
  const urlFormat = options.urlFormat ?? 'json';
  if (urlFormat !== 'json' && urlFormat !== 'text')
    throw new TypeError("connect-provider emulator: urlFormat is 'json' or 'text'");
  if (options.jwtSecret !== undefined && options.jwtSecret.length < 16) {
    throw new TypeError('connect-provider emulator: jwtSecret must be 16 characters or more');
  }
  const bodyLimit = options.bodyLimit ?? LIMITS.bodyBytes;
  const now = options.now ?? (() => new Date());
  let publicUrl: string | undefined;
  if (options.publicUrl !== undefined) {
    const parsed = new URL(options.publicUrl);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new TypeError('connect-provider emulator: publicUrl is an http(s) URL');
    publicUrl = parsed.origin;
  }
  const cors = corsPolicy(options.corsOrigins, apiKey === DEFAULT_API_KEY);
  const contract = loadContract();

  let state: EmulatorState;
  const dataFile = options.dataFile;
  // One emulator per data file: a second one is refused (EmulatorDataError) before it touches the file.
  const unlock = dataFile ? lockDataFile(dataFile) : undefined;
  try {
    if (dataFile) {
      removeStrayTemps(dataFile);
      state = readStateFile(dataFile) ?? seedState();
      writeStateFile(dataFile, state);
    } else {
      state = seedState();
    }
  } catch (error) {
    unlock?.();
    throw error;
  }
  const writer = dataFile
    ? stateWriter(dataFile, (error) =>
        console.error(`[emulator] could not save ${dataFile}; the next change tries again:`, error),
      )
    : undefined;
  const auth = createAuth({ apiKey, secret: options.jwtSecret ?? state.tokenSecret, now });

  let server: Server | undefined;
  let info: ListenInfo | undefined;
  let unspecifiedHost = false;

  function publicOrigin(request: Request): string {
    // Listening on every address (0.0.0.0, ::), the address this connection reached is the one to hand out.
    // Last, for handle() called directly with a Request its caller built: that Request's origin.
    const listening = info && !unspecifiedHost ? info.url : undefined;
    return publicUrl ?? listening ?? arrivedAt.get(request) ?? new URL(request.url).origin;
  }

  /** The requests that changed the state: each is answered once its change is on disk. */
  const changedBy = new WeakSet<Request>();
  function env(request: Request): Env {
    return {
      state,
      now: now(),
      clock: now,
      publicOrigin: publicOrigin(request),
      verifyDelayMs,
      changed: () => {
        changedBy.add(request);
      },
    };
  }

  /** Saves a change the request made before it is answered; a 503 problem when it could not be saved. */
  async function persist(request: Request): Promise<void> {
    if (!writer || !changedBy.has(request)) return;
    changedBy.delete(request);
    try {
      await writer.save(state);
    } catch {
      throw new HttpProblem(
        {
          status: 503,
          detail: `the change was made in memory but could not be saved to the data file ${dataFile}; the next change tries again`,
          retryable: true,
        },
        { 'retry-after': '1' },
      );
    }
  }

  async function handleApi(request: Request, subPath: string, server: 'base' | 'search'): Promise<Response> {
    const matches = contract.operations
      .filter((op) => op.server === server)
      .map((op) => ({ op, params: op.match(subPath) }))
      .filter((m): m is { op: OperationInfo; params: Record<string, string> } => m.params !== null);
    if (matches.length === 0)
      throw new HttpProblem({
        status: 404,
        detail: `no such route: ${request.method} ${new URL(request.url).pathname}`,
      });
    const match = matches.find((m) => m.op.method === request.method);
    if (!match) {
      const allow = [...new Set(matches.map((m) => m.op.method))].join(', ');
      throw new HttpProblem(
        { status: 405, detail: `${request.method} is not allowed here; allowed: ${allow}` },
        { allow },
      );
    }
    const { op } = match;
    const principal = auth.authenticate(request, op);
    let body: unknown;
    if (op.hasBody) {
      body = await readJsonBody(request, bodyLimit);
      if (jsonDepth(body, LIMITS.jsonDepth) > LIMITS.jsonDepth) {
        throw new HttpProblem({
          status: 400,
          detail: `the JSON body is nested deeper than ${LIMITS.jsonDepth} levels`,
        });
      }
      // The real service's newer name for the project field stands in for projectId.
      // (A body that is no object has no such field, and fails validation below.)
      const b = body as Record<string, unknown> | null;
      if (op.operationId === 'oauthConnect' && b?.projectId === undefined && b?.projectIdOrName !== undefined) {
        b.projectId = b.projectIdOrName;
      }
    }
    const url = new URL(request.url);
    const params = op.validateParams(match.params, url.searchParams);
    const checked = op.validateBody(body);
    const issues = [...params.issues, ...checked.issues];
    let total = params.issues.length + checked.total;
    if (issues.length === 0) {
      issues.push(...limitIssues(op.operationId, body));
      total = issues.length;
    }
    if (issues.length > 0) {
      // At most LIMITS.problemIssues issues, each bounded: no request makes a problem much larger than itself.
      const shown = issues.slice(0, LIMITS.problemIssues).map(boundIssue);
      const details = shown.map((i) => i.detail).join('; ');
      let detail: string;
      if (!checked.complete) detail = `the body is checked up to its first problem, being large: ${details}`;
      else if (total === 1) detail = shown[0].detail;
      else if (total > shown.length) detail = `${total} problems, the first ${shown.length}: ${details}`;
      else detail = `${total} problems: ${details}`;
      throw new HttpProblem({
        status: 400,
        type: PROBLEM_TYPES.validation,
        title: 'Invalid request',
        detail,
        issues: shown,
      });
    }
    // The one place an operationId from the document meets its typed handler; openapi.test.ts
    // checks that schema.ts (whose keys type `handlers`) is generated from that same document.
    // `handlers` has a key for every operationId of schema.ts, so an operation of the document always has one.
    const handler = handlers[op.operationId as OperationId] as (ctx: OperationContext<OperationId>) => AnyAnswer;
    const context = {
      ...env(request),
      principal,
      path: params.path,
      query: params.query,
      body,
    } as OperationContext<OperationId>;
    return toResponse(handler(context), urlFormat);
  }

  function decodeSegment(segment: string): string {
    try {
      return decodeURIComponent(segment);
    } catch {
      throw new HttpProblem({ status: 400, detail: 'the path is not valid percent-encoded UTF-8' });
    }
  }

  async function route(request: Request): Promise<Response> {
    const early = preflight(request, cors);
    if (early) return early;
    const path = pathnameOf(request);
    // Only a Request-like object that is no Request has a URL that does not parse.
    if (path === undefined) throw new HttpProblem({ status: 400, detail: 'the request URL is not an absolute URL' });
    if (path.startsWith('/v1/')) return handleApi(request, path.slice(3), 'base');
    if (path.startsWith('/search/v1/')) return handleApi(request, path.slice(10), 'search');
    const consent = /^\/consent\/([^/]+)$/.exec(path);
    if (consent) return handleConsent(env(request), request, decodeSegment(consent[1]));
    if (path === '/oauth/callback') return handleCallback(env(request), request);
    if (path.startsWith('/media/')) return handleMedia(request, path);
    throw new HttpProblem({ status: 404, detail: `no such route: ${request.method} ${path}` });
  }

  async function handle(request: Request): Promise<Response> {
    const requestId = randomUUID();
    let response: Response;
    try {
      response = await route(request);
      await persist(request);
    } catch (error) {
      // A change made before a refusal is saved too, though its answer claims none.
      await persist(request).catch(() => {});
      let problem: HttpProblem;
      if (error instanceof HttpProblem) {
        problem = error;
      } else if (request.signal.aborted || isClientGone(error)) {
        // The client went away mid-body: its doing, not the emulator's; nobody is left to read the answer.
        problem = new HttpProblem({ status: 499, title: 'Client Closed Request', detail: 'the request was cut off' });
      } else {
        console.error('[emulator] internal error', error);
        problem = new HttpProblem({ status: 500, detail: 'the emulator failed to answer this request' });
      }
      const pathname = pathnameOf(request);
      if (pathname && !pathname.startsWith('/v1') && !pathname.startsWith('/search/v1') && wantsHtml(request)) {
        const { status, title = statusTitle(status), detail = '' } = problem.init;
        response = errorPage(status, title, detail);
      } else {
        const instance = pathname === undefined ? {} : { instance: `${publicOrigin(request)}${pathname}` };
        response = problemResponse(
          { ...bounded(problem.init), ...instance, time: now().toISOString(), requestId },
          problem.headers,
        );
      }
    }
    response.headers.set('x-request-id', requestId);
    // No browser guesses another type than the one declared, whatever the answer (JSON, problem, page, redirect).
    response.headers.set('x-content-type-options', 'nosniff');
    return addCorsHeaders(request, response, cors);
  }

  // Mounted in another server, the emulator's address is the one that server accepted the connection on.
  const listener: NodeListener = toNodeListener(
    (request, incoming) => {
      const { localAddress, localPort } = incoming?.socket ?? {};
      if (localAddress && localPort) arrivedAt.set(request, originOf(localAddress.replace(/^::ffff:/, ''), localPort));
      return handle(request);
    },
    { serves: ownsPath },
  );

  return {
    handle,
    listener,
    get state() {
      return state;
    },
    get info() {
      return info;
    },
    apiKey,
    corsOrigins: describeCors(cors),
    bearerToken: auth.issueToken(),
    issueToken: auth.issueToken,
    flush: () => writer?.flush() ?? Promise.resolve(),
    async listen(port = 0, host = '127.0.0.1') {
      if (server) throw new Error('connect-provider emulator: already listening');
      server = createServer(listener);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, host, () => resolve());
      });
      const address = server.address() as AddressInfo;
      unspecifiedHost = address.address === '0.0.0.0' || address.address === '::';
      const url = originOf(address.address, address.port);
      info = { url, baseUrl: `${url}/v1`, searchUrl: `${url}/search/v1` };
      return info;
    },
    async close() {
      const s = server;
      server = undefined;
      info = undefined;
      if (s) {
        await new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        });
      }
      await writer?.flush();
      unlock?.();
    },
  };
}
