// createConnectHandler: the host backend's three connect routes, between the
// browser's <connect-provider> and the platform.
import { createPlatformClient, type PlatformClient, type RetryOptions } from '../api/client.js';
import { withoutCredentials } from '../api/credentials.js';
import type { Connection } from '../api/types.js';
import { checkOrigin, corsHeaders, preflight } from './guard.js';
import { HttpProblem, jsonResponse, pathnameOf, problemResponse, readJsonBody } from '../http/problem.js';
import { HANDLER_PROBLEM_TYPES, upstreamProblem } from './upstream.js';

/** Who is calling, as the host app knows it. Group and consumer are never taken from the browser. */
export interface ConnectUser {
  groupRef: string;
  consumerRef: string;
  groupName?: string;
  consumerName?: string;
}

export interface ConnectHandlerOptions {
  /** The platform API key. It never leaves the server. */
  apiKey: string;
  /** The platform's base URL, ending in /v1. */
  baseUrl: string;
  /** The platform project's ID or name. */
  project: string;
  /** Decides who the caller is from the request (its session cookie, token...); null answers 401. */
  authorize: (request: Request) => ConnectUser | null | Promise<ConnectUser | null>;
  /** Providers the browser may ask for; others answer 400. Default: any the platform knows. */
  providers?: readonly string[];
  /** Origins besides the request's own that may call the handler (answered with CORS). */
  allowedOrigins?: readonly string[];
  /** The origin the platform's callback page posts from. Default: the origin of baseUrl. */
  messageOrigin?: string;
  /** Largest request body in bytes (default 16384). */
  bodyLimit?: number;
  /** Time-out of each platform request in ms (default 8000). */
  timeoutMs?: number;
  /** Retries of platform requests (default: 2, with waits of at most 1 s, Retry-After up to 3 s). */
  retry?: RetryOptions | false;
  /** The fetch used to reach the platform. */
  fetch?: typeof fetch;
}

export type ConnectHandler = (request: Request) => Promise<Response>;

/** What POST oauth-connect and PATCH oauth-update answer. */
export interface ConnectUrlAnswer {
  url: string;
  messageOrigin: string;
}

const HINTS = ['providerWorkspaceRef', 'providerAppId'] as const;
const IGNORED_HINTS = ['groupRef', 'groupName', 'consumerRef', 'consumerName'];
const MAX_FIELD_LENGTH = 512;

interface RouteMatch {
  route: 'connect' | 'update' | 'get' | 'list';
  connectionId?: string;
}

/** Matches the end of the path, so the handler serves under any prefix. */
function matchRoute(pathname: string): RouteMatch | null {
  if (/\/oauth-connect\/?$/.test(pathname)) return { route: 'connect' };
  const update = /\/connections\/([^/]+):oauth-update\/?$/.exec(pathname);
  if (update) return { route: 'update', connectionId: update[1] };
  const get = /\/connections\/([^/]+)\/?$/.exec(pathname);
  if (get) return { route: 'get', connectionId: get[1] };
  if (/\/connections\/?$/.test(pathname)) return { route: 'list' };
  return null;
}

const METHODS: Record<RouteMatch['route'], string> = { connect: 'POST', update: 'PATCH', get: 'GET', list: 'GET' };

function decodeId(raw: string): string {
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    throw new HttpProblem({ status: 404, detail: 'no such connection' });
  }
  if (id === '' || id.length > MAX_FIELD_LENGTH || /[\u0000-\u001f]/.test(id)) {
    throw new HttpProblem({ status: 404, detail: 'no such connection' });
  }
  return id;
}

function invalid(name: string, detail: string, value?: unknown): HttpProblem {
  const issue: { detail: string; in: string; name: string; value?: unknown } = { detail, in: 'body', name };
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') issue.value = value;
  return new HttpProblem({
    status: 400,
    type: HANDLER_PROBLEM_TYPES.validation,
    title: 'Invalid request',
    detail: `${name} ${detail}`,
    issues: [issue],
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the browser's oauth-connect body; returns the fields forwarded to the platform. */
function parseConnectBody(body: unknown, providers: ReadonlySet<string> | undefined) {
  if (!isPlainObject(body)) throw invalid('(root)', 'must be a JSON object');
  const { provider } = body;
  if (typeof provider !== 'string' || provider.trim() === '') throw invalid('provider', 'is required', provider);
  if (provider.length > MAX_FIELD_LENGTH) throw invalid('provider', 'is too long');
  if (providers && !providers.has(provider)) {
    throw new HttpProblem({
      status: 400,
      type: HANDLER_PROBLEM_TYPES.providerNotAllowed,
      title: 'Provider not allowed',
      detail: `provider ${provider} is not offered by this app`,
      issues: [{ detail: 'is not offered by this app', in: 'body', name: 'provider', value: provider }],
    });
  }
  const forwarded: { provider: string; providerWorkspaceRef?: string; providerAppId?: string; providerMetadata?: Record<string, unknown> } = {
    provider,
  };
  for (const key of HINTS) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw invalid(key, 'must be a string', value);
    if (value.length > MAX_FIELD_LENGTH) throw invalid(key, 'is too long');
    if (value !== '') forwarded[key] = value;
  }
  for (const key of IGNORED_HINTS) {
    const value = body[key];
    if (value !== undefined && value !== null && typeof value !== 'string') throw invalid(key, 'must be a string', value);
  }
  if (body.providerMetadata !== undefined && body.providerMetadata !== null) {
    if (!isPlainObject(body.providerMetadata)) throw invalid('providerMetadata', 'must be an object');
    forwarded.providerMetadata = body.providerMetadata;
  }
  return forwarded;
}

/** Creates the handler of the three connect routes. Throws a TypeError for unusable options. */
export function createConnectHandler(options: ConnectHandlerOptions): ConnectHandler {
  if (!options || typeof options !== 'object') throw new TypeError('connect-provider: createConnectHandler needs options');
  if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new TypeError('connect-provider: apiKey is required');
  if (typeof options.project !== 'string' || options.project === '') throw new TypeError('connect-provider: project is required');
  if (typeof options.authorize !== 'function') throw new TypeError('connect-provider: authorize(request) is required');
  const client: PlatformClient = createPlatformClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? 8000,
    retry: options.retry ?? { retries: 2, minDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 3000 },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const messageOrigin = options.messageOrigin ?? new URL(options.baseUrl).origin;
  const providers = options.providers ? new Set(options.providers) : undefined;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const bodyLimit = options.bodyLimit ?? 16 * 1024;
  const secrets = [options.apiKey, options.baseUrl.replace(/\/+$/, '')];
  const project = options.project;

  async function ownConnection(user: ConnectUser, connectionId: string, signal: AbortSignal): Promise<Connection> {
    let connection: Connection;
    try {
      connection = await client.getConnection({ projectIdOrName: project, connectionId }, { signal });
    } catch (error) {
      throw upstreamProblem(error, secrets);
    }
    // Another group's connection is answered exactly like a missing one.
    if (connection.group?.groupRef !== user.groupRef) throw new HttpProblem({ status: 404, detail: 'no such connection' });
    return connection;
  }

  async function serve(request: Request, match: RouteMatch, user: ConnectUser): Promise<Response> {
    const signal = request.signal;
    if (match.route === 'get') {
      const connection = await ownConnection(user, decodeId(match.connectionId!), signal);
      return jsonResponse(withoutCredentials(connection));
    }
    if (match.route === 'list') {
      const provider = new URL(request.url).searchParams.get('provider') ?? undefined;
      if (provider !== undefined && (provider === '' || provider.length > MAX_FIELD_LENGTH)) {
        throw new HttpProblem({
          status: 400,
          type: HANDLER_PROBLEM_TYPES.validation,
          title: 'Invalid request',
          detail: 'provider must be a non-empty provider name',
          issues: [{ detail: 'must be a non-empty provider name', in: 'query', name: 'provider' }],
        });
      }
      let connections: Connection[];
      try {
        connections = await client.listConnections({ projectIdOrName: project, groupRef: user.groupRef, ...(provider ? { provider } : {}) }, { signal });
      } catch (error) {
        throw upstreamProblem(error, secrets);
      }
      // The platform filtered by group already; checked again so a platform that ignores the filter leaks nothing.
      const own = connections.filter((c) => c.group?.groupRef === user.groupRef && (!provider || c.provider === provider));
      own.sort((a, b) => (a.createTime < b.createTime ? 1 : a.createTime > b.createTime ? -1 : 0));
      return jsonResponse(own.map(withoutCredentials));
    }
    if (match.route === 'update') {
      const connectionId = decodeId(match.connectionId!);
      await ownConnection(user, connectionId, signal);
      try {
        const url = await client.oauthUpdate({ projectIdOrName: project, connectionId }, { signal });
        return jsonResponse({ url, messageOrigin } satisfies ConnectUrlAnswer);
      } catch (error) {
        throw upstreamProblem(error, secrets);
      }
    }
    const fields = parseConnectBody(await readJsonBody(request, bodyLimit), providers);
    try {
      const url = await client.oauthConnect(
        {
          projectId: project,
          ...fields,
          groupRef: user.groupRef,
          consumerRef: user.consumerRef,
          ...(user.groupName ? { groupName: user.groupName } : {}),
          ...(user.consumerName ? { consumerName: user.consumerName } : {}),
        },
        { signal },
      );
      return jsonResponse({ url, messageOrigin } satisfies ConnectUrlAnswer);
    } catch (error) {
      throw upstreamProblem(error, secrets);
    }
  }

  return async function connectHandler(request: Request): Promise<Response> {
    let cors: Record<string, string> = {};
    try {
      const verdict = checkOrigin(request, { allowedOrigins });
      if (!verdict.ok) {
        throw new HttpProblem({ status: 403, type: HANDLER_PROBLEM_TYPES.forbiddenOrigin, title: 'Forbidden', detail: verdict.reason });
      }
      if (verdict.corsOrigin) {
        cors = corsHeaders(verdict.corsOrigin);
        if (request.method === 'OPTIONS') return preflight(verdict.corsOrigin, request);
      }
      const match = matchRoute(new URL(request.url).pathname);
      if (!match) throw new HttpProblem({ status: 404, detail: 'no such connect route' });
      const allowed = METHODS[match.route];
      if (request.method !== allowed) {
        throw new HttpProblem({ status: 405, detail: `${request.method} is not allowed here; allowed: ${allowed}` }, { allow: allowed });
      }
      let user: ConnectUser | null;
      try {
        user = await options.authorize(request);
      } catch (error) {
        console.error('[connect-provider] authorize() threw', error);
        throw new HttpProblem({ status: 500, detail: 'the app could not check who you are' });
      }
      if (!user) throw new HttpProblem({ status: 401, detail: 'sign in to connect an account' });
      if (typeof user.groupRef !== 'string' || user.groupRef === '' || typeof user.consumerRef !== 'string' || user.consumerRef === '') {
        console.error('[connect-provider] authorize() must return non-empty groupRef and consumerRef');
        throw new HttpProblem({ status: 500, detail: 'the app could not check who you are' });
      }
      const response = await serve(request, match, user);
      for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
      return response;
    } catch (error) {
      const problem = error instanceof HttpProblem ? error : upstreamProblem(error, secrets);
      if (!(error instanceof HttpProblem) && !(error instanceof Error && error.name === 'AbortError')) {
        console.error('[connect-provider] unexpected error', error);
      }
      const instance = pathnameOf(request);
      return problemResponse(
        { ...problem.init, ...(instance ? { instance } : {}), time: new Date().toISOString() },
        { ...Object.fromEntries(new Headers(problem.headers)), ...cors },
      );
    }
  };
}
