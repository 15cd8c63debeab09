// createEmulator: a local implementation of the platform, as a Web-standard
// handler, a Node listener (node:http, Connect, Vite) and a server it can
// start itself.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpProblem, pathnameOf, problemResponse, readJsonBody } from '../http/problem.js';
import { toNodeListener, type NodeListener } from '../http/node.js';
import { signJwt, verifyJwt, type TokenClaims } from './jwt.js';
import { loadContract, type OperationInfo } from './openapi.js';
import { applyConsent, operations, PROBLEM_TYPES, type OperationContext, type Principal } from './operations.js';
import { callbackPage, consentPage, errorPage, type CompletionMessage } from './pages.js';
import { findProvider } from './providers.js';
import { readStateFile, seedState, writeStateFile, type ConsentSession, type EmulatorState } from './store.js';

export interface EmulatorOptions {
  /** The key X-Api-Key must carry (default `dev-api-key`). */
  apiKey?: string;
  /** Milliseconds from consent to the connection turning working / bad_credentials (default 1500). */
  verifyDelay?: number;
  /** Keep state in this JSON file across restarts (written atomically). Default: memory only. */
  dataFile?: string;
  /** The origin browsers reach the emulator at, for consent URLs. Default: the origin each request was sent to. */
  publicUrl?: string;
  /** How oauth-connect and oauth-update answer the URL: a JSON string (default, as the spec) or text/plain (as the real service). */
  urlFormat?: 'json' | 'text';
  /** Secret that signs Bearer JWTs. Default: derived from the API key, so tokens survive restarts. */
  jwtSecret?: string;
  /** Largest request body in bytes (default 1 MiB). */
  bodyLimit?: number;
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
  /** Stops the server started by listen(), if any. */
  close(): Promise<void>;
  /** The API key X-Api-Key must carry. */
  readonly apiKey: string;
  /** A Bearer token for org_demo, valid for 30 days. */
  readonly bearerToken: string;
  /** Issues a Bearer JWT (HS256) that the emulator accepts. */
  issueToken(claims?: { sub?: string; org?: string; expiresInSeconds?: number }): string;
  /** The live state (read it in tests; change it only through the API). */
  readonly state: EmulatorState;
  /** Where listen() serves, once started. */
  readonly info: ListenInfo | undefined;
}

/** Path prefixes the emulator serves; the Node listener passes anything else to next(). */
const OWN_PATHS = ['/v1/', '/search/v1/', '/consent/', '/oauth/callback'];

export function ownsPath(pathname: string): boolean {
  return OWN_PATHS.some((p) => pathname.startsWith(p)) || pathname === '/v1' || pathname === '/search/v1';
}

// Not Response.redirect(): its headers are immutable, and every answer gets an x-request-id.
function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

function wantsHtml(request: Request): boolean {
  return /text\/html/.test(request.headers.get('accept') ?? '');
}

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const apiKey = options.apiKey ?? 'dev-api-key';
  if (apiKey === '') throw new TypeError('connect-provider emulator: apiKey must not be empty');
  const verifyDelayMs = options.verifyDelay ?? 1500;
  if (!Number.isFinite(verifyDelayMs) || verifyDelayMs < 0) {
    throw new TypeError('connect-provider emulator: verifyDelay must be a number of milliseconds >= 0');
  }
  const urlFormat = options.urlFormat ?? 'json';
  if (urlFormat !== 'json' && urlFormat !== 'text') throw new TypeError("connect-provider emulator: urlFormat is 'json' or 'text'");
  const jwtSecret = options.jwtSecret ?? createHash('sha256').update(`connect-provider-emulator:${apiKey}`).digest('hex');
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const now = options.now ?? (() => new Date());
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  const contract = loadContract();

  let state: EmulatorState;
  if (options.dataFile) {
    state = readStateFile(options.dataFile) ?? seedState();
    writeStateFile(options.dataFile, state);
  } else {
    state = seedState();
  }

  function issueToken(claims: { sub?: string; org?: string; expiresInSeconds?: number } = {}): string {
    const iat = Math.floor(now().getTime() / 1000);
    const full: TokenClaims = {
      sub: claims.sub ?? 'dev-user',
      org: claims.org ?? 'org_demo',
      iat,
      exp: iat + (claims.expiresInSeconds ?? 30 * 24 * 3600),
    };
    return signJwt(full, jwtSecret);
  }

  function authenticate(request: Request, op: OperationInfo): Principal {
    const key = request.headers.get('x-api-key');
    if (key !== null) {
      if (key !== apiKey) throw new HttpProblem({ status: 401, detail: 'the X-Api-Key header does not carry a valid API key' }, { 'www-authenticate': 'Bearer' });
      return { kind: 'apiKey' };
    }
    const authorization = request.headers.get('authorization');
    const bearer = authorization && /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
    if (!bearer) {
      const detail = op.bearer
        ? 'send an API key in X-Api-Key or a Bearer JWT in Authorization'
        : 'send an API key in X-Api-Key';
      throw new HttpProblem({ status: 401, detail });
    }
    if (!op.bearer) {
      throw new HttpProblem({ status: 401, detail: `${op.operationId} accepts only an API key in X-Api-Key, not a Bearer token` });
    }
    const verified = verifyJwt(bearer.trim(), jwtSecret, now().getTime());
    if ('error' in verified) throw new HttpProblem({ status: 401, detail: verified.error }, { 'www-authenticate': 'Bearer error="invalid_token"' });
    return { kind: 'bearer', claims: verified.claims };
  }

  let dirty = false;
  function context(request: Request, extra: Partial<OperationContext>): OperationContext {
    return {
      state,
      principal: { kind: 'apiKey' },
      path: {},
      query: {},
      body: undefined,
      now: now(),
      publicOrigin: publicUrl ?? new URL(request.url).origin,
      verifyDelayMs,
      urlFormat,
      changed: () => {
        dirty = true;
      },
      ...extra,
    };
  }

  async function handleApi(request: Request, subPath: string, server: 'base' | 'search'): Promise<Response> {
    const matches = contract.operations
      .filter((op) => op.server === server)
      .map((op) => ({ op, params: op.match(subPath) }))
      .filter((m): m is { op: OperationInfo; params: Record<string, string> } => m.params !== null);
    if (matches.length === 0) throw new HttpProblem({ status: 404, detail: `no such route: ${request.method} ${new URL(request.url).pathname}` });
    const match = matches.find((m) => m.op.method === request.method);
    if (!match) {
      const allow = [...new Set(matches.map((m) => m.op.method))].join(', ');
      throw new HttpProblem({ status: 405, detail: `${request.method} is not allowed here; allowed: ${allow}` }, { allow });
    }
    const { op } = match;
    const principal = authenticate(request, op);
    let body: unknown;
    if (op.hasBody) {
      body = await readJsonBody(request, bodyLimit);
      // The real service's newer name for the project field stands in for projectId.
      if (op.operationId === 'oauthConnect' && body && typeof body === 'object' && !Array.isArray(body)) {
        const b = body as Record<string, unknown>;
        if (b.projectId === undefined && b.projectIdOrName !== undefined) b.projectId = b.projectIdOrName;
      }
    }
    const url = new URL(request.url);
    const params = op.validateParams(match.params, url.searchParams);
    const issues = [...params.issues, ...op.validateBody(body)];
    if (issues.length > 0) {
      throw new HttpProblem({
        status: 400,
        type: PROBLEM_TYPES.validation,
        title: 'Invalid request',
        detail: issues.length === 1 ? issues[0].detail : `${issues.length} problems: ${issues.map((i) => i.detail).join('; ')}`,
        issues,
      });
    }
    return operations[op.operationId](context(request, { principal, path: params.path, query: params.query, body }));
  }

  function findSession(id: string): ConsentSession {
    const session = state.consents.find((s) => s.id === id);
    if (!session) throw new HttpProblem({ status: 404, title: 'Unknown authorization', detail: 'this authorization link is not known; start again from the app' });
    if (Date.parse(session.expiresAt) <= now().getTime()) {
      throw new HttpProblem({ status: 410, title: 'Authorization expired', detail: 'this authorization link has expired; start again from the app' });
    }
    return session;
  }

  async function handleConsent(request: Request, id: string): Promise<Response> {
    const session = findSession(id);
    if (request.method === 'GET') {
      if (session.decision) return seeOther(`/oauth/callback?session=${encodeURIComponent(id)}`);
      const project = state.projects.find((p) => p.id === session.projectId);
      const provider = findProvider(session.provider)!;
      return consentPage({
        sessionId: session.id,
        mode: session.mode,
        appName: project?.appName ?? 'An application',
        providerName: provider.displayName,
        groupName: session.groupName,
        groupRef: session.groupRef,
        consumerName: session.consumerName,
        consumerRef: session.consumerRef,
        scopes: provider.scopes,
      });
    }
    if (request.method !== 'POST') throw new HttpProblem({ status: 405, detail: `${request.method} is not allowed here; allowed: GET, POST` }, { allow: 'GET, POST' });
    const type = (request.headers.get('content-type') ?? '').split(';')[0].trim();
    if (type !== 'application/x-www-form-urlencoded') {
      throw new HttpProblem({ status: 415, detail: 'the consent form posts application/x-www-form-urlencoded' });
    }
    const text = await request.text();
    if (text.length > 4096) throw new HttpProblem({ status: 413, detail: 'the consent form is larger than 4096 bytes' });
    const decision = new URLSearchParams(text).get('decision');
    if (decision !== 'allow' && decision !== 'allow_bad_credentials' && decision !== 'deny') {
      throw new HttpProblem({
        status: 400,
        type: PROBLEM_TYPES.validation,
        title: 'Invalid request',
        detail: 'decision must be allow, allow_bad_credentials or deny',
        issues: [{ detail: 'must be allow, allow_bad_credentials or deny', in: 'body', name: 'decision', value: decision }],
      });
    }
    if (session.decision) throw new HttpProblem({ status: 409, title: 'Already decided', detail: 'this authorization was already answered' });
    applyConsent(context(request, {}), session, decision);
    return seeOther(`/oauth/callback?session=${encodeURIComponent(id)}`);
  }

  function handleCallback(request: Request): Response {
    if (request.method !== 'GET') throw new HttpProblem({ status: 405, detail: `${request.method} is not allowed here; allowed: GET` }, { allow: 'GET' });
    const id = new URL(request.url).searchParams.get('session') ?? '';
    const session = findSession(id);
    if (!session.decision) throw new HttpProblem({ status: 409, title: 'Not decided', detail: 'this authorization has not been answered yet' });
    const provider = findProvider(session.provider)!;
    const message: CompletionMessage =
      session.decision === 'deny'
        ? { eventType: 'AUTHORIZATION_FAILED', data: { error: `The user denied access to ${provider.displayName}.` } }
        : { eventType: 'AUTHORIZATION_SUCCEEDED', data: { connection: session.resultConnectionId! } };
    return callbackPage(message);
  }

  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path.startsWith('/v1/')) return handleApi(request, path.slice(3), 'base');
    if (path.startsWith('/search/v1/')) return handleApi(request, path.slice(10), 'search');
    const consent = /^\/consent\/([^/]+)$/.exec(path);
    if (consent) return handleConsent(request, decodeURIComponent(consent[1]));
    if (path === '/oauth/callback') return handleCallback(request);
    throw new HttpProblem({ status: 404, detail: `no such route: ${request.method} ${path}` });
  }

  async function handle(request: Request): Promise<Response> {
    const requestId = randomUUID();
    let response: Response;
    try {
      response = await route(request);
    } catch (error) {
      let problem: HttpProblem;
      if (error instanceof HttpProblem) {
        problem = error;
      } else {
        console.error('[emulator] internal error', error);
        problem = new HttpProblem({ status: 500, detail: 'the emulator failed to answer this request' });
      }
      const pathname = pathnameOf(request) ?? '/';
      if (!pathname.startsWith('/v1') && !pathname.startsWith('/search/v1') && wantsHtml(request)) {
        response = errorPage(problem.init.status, problem.init.title ?? 'Error', problem.init.detail ?? '');
      } else {
        response = problemResponse(
          { ...problem.init, instance: pathname, time: now().toISOString(), requestId },
          problem.headers,
        );
      }
    }
    if (dirty) {
      dirty = false;
      if (options.dataFile) writeStateFile(options.dataFile, state);
    }
    response.headers.set('x-request-id', requestId);
    return response;
  }

  const listener = toNodeListener(handle, { serves: ownsPath });

  let server: Server | undefined;
  let info: ListenInfo | undefined;

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
    bearerToken: issueToken(),
    issueToken,
    async listen(port = 0, host = '127.0.0.1') {
      if (server) throw new Error('connect-provider emulator: already listening');
      server = createServer(listener);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, host, () => resolve());
      });
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      const url = `http://${shownHost}:${address.port}`;
      info = { url, baseUrl: `${url}/v1`, searchUrl: `${url}/search/v1` };
      return info;
    },
    async close() {
      const s = server;
      server = undefined;
      info = undefined;
      if (!s) return;
      await new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      });
    },
  };
}

