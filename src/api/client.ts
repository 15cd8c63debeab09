// A typed client for the platform's 13 operations (openapi.yaml), for
// server-side code: it holds the API key, so it never belongs in a browser.
import type {
  Connection,
  CreateNotificationEventTopicRouteRequest,
  CreateProjectRequest,
  Destination,
  GetConnectionQuery,
  ListConnectionsQuery,
  Invite,
  ListNotificationEventTopicRoutesQuery,
  ListTopicDestinationRoutesQuery,
  NotificationEventTopicRoute,
  OAuthConnectRequest,
  Project,
  SearchRequest,
  SearchResult,
  TopicDestinationRoute,
} from './types.js';
import { PlatformRequestError, ProblemError, problemFromResponse } from './problem.js';
import { backoffDelay, sleep } from './retry.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 disables retrying). */
  retries?: number;
  /** First backoff delay in ms (default 250). */
  minDelayMs?: number;
  /** Largest backoff delay in ms (default 5000). */
  maxDelayMs?: number;
  /**
   * Longest wait the client accepts from `Retry-After` or `retryAfter` (default
   * 30000): a server asking for longer gets its error thrown at once instead.
   */
  maxRetryAfterMs?: number;
}

interface ClientOptionsBase {
  /** The platform's base URL, ending in /v1 (e.g. http://127.0.0.1:4010/v1). */
  baseUrl: string;
  /** The search host's base URL, ending in /v1. Needed only by searchRecords. */
  searchUrl?: string;
  /** The fetch to use (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /** Time-out of each attempt in ms (default 15000). */
  timeoutMs?: number;
  /** Retry policy, or false for none. */
  retry?: RetryOptions | false;
}

/** Exactly one credential: an API key (every operation) or a Bearer JWT (the operations that accept one). */
export type PlatformClientOptions = ClientOptionsBase &
  ({ apiKey: string; accessToken?: undefined } | { accessToken: string; apiKey?: undefined });

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call, its retries and its waits. */
  signal?: AbortSignal;
}

type ProjectParams = { projectIdOrName: string };

export interface PlatformClient {
  /** GET /orgs/{orgId}/invites */
  listInvites(params: { orgId: string }, options?: CallOptions): Promise<Invite[]>;
  /** POST /oauth-connect: the URL that starts the OAuth flow of a new connection. */
  oauthConnect(body: OAuthConnectRequest, options?: CallOptions): Promise<string>;
  /** PATCH /projects/{projectIdOrName}/connections/{connectionId}:oauth-update: the URL that re-authorizes a connection. */
  oauthUpdate(params: ProjectParams & { connectionId: string }, options?: CallOptions): Promise<string>;
  /** POST /projects */
  createProject(body: CreateProjectRequest, options?: CallOptions): Promise<Project>;
  /** GET /projects/{projectIdOrName}/connections?provider=&groupRef=&consumerRef= (beyond the seed): exact-match filters, oldest first. */
  listConnections(params: ProjectParams & ListConnectionsQuery, options?: CallOptions): Promise<Connection[]>;
  /** GET /projects/{projectIdOrName}/connections/{connectionId}, with the credential options. */
  getConnection(
    params: ProjectParams & { connectionId: string } & GetConnectionQuery,
    options?: CallOptions,
  ): Promise<Connection>;
  /** GET /projects/{projectIdOrName}/destinations */
  listDestinations(params: ProjectParams, options?: CallOptions): Promise<Destination[]>;
  /** DELETE /projects/{projectIdOrName}/destinations/{destination} */
  deleteDestination(params: ProjectParams & { destination: string }, options?: CallOptions): Promise<void>;
  /** DELETE /projects/{projectIdOrName}/integrations/{integrationId} */
  deleteIntegration(params: ProjectParams & { integrationId: string }, options?: CallOptions): Promise<void>;
  /** DELETE /projects/{projectIdOrName}/topics/{topicId} */
  deleteTopic(params: ProjectParams & { topicId: string }, options?: CallOptions): Promise<void>;
  /** POST {searchUrl}/projects/{projectIdOrName}/integrations/{integrationId}?groupRef= */
  searchRecords(
    params: ProjectParams & { integrationId: string; groupRef: string; body: SearchRequest },
    options?: CallOptions,
  ): Promise<SearchResult>;
  /** GET /projects/{projectIdOrName}/topic-destination-routes */
  listTopicDestinationRoutes(
    params: ProjectParams & ListTopicDestinationRoutesQuery,
    options?: CallOptions,
  ): Promise<TopicDestinationRoute[]>;
  /** POST /projects/{projectIdOrName}/notification-event-topic-routes */
  createNotificationEventTopicRoute(
    params: ProjectParams & { body: CreateNotificationEventTopicRouteRequest },
    options?: CallOptions,
  ): Promise<NotificationEventTopicRoute>;
  /** GET /projects/{projectIdOrName}/notification-event-topic-routes */
  listNotificationEventTopicRoutes(
    params: ProjectParams & ListNotificationEventTopicRoutesQuery,
    options?: CallOptions,
  ): Promise<NotificationEventTopicRoute[]>;
}

type Answer = 'json' | 'url' | 'none';

interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path below the server's /v1, with parameters already encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  server?: 'base' | 'search';
  answer: Answer;
  /**
   * Whether a request that may have reached the server can be sent again
   * (network error, time-out). 429 and 503 are retried for every operation:
   * the server did not act on those.
   */
  idempotent: boolean;
}

const DEFAULT_RETRY: Required<RetryOptions> = { retries: 3, minDelayMs: 250, maxDelayMs: 5000, maxRetryAfterMs: 30000 };

function segment(value: string, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`connect-provider: ${name} must be a non-empty string`);
  }
  return encodeURIComponent(value);
}

function trimBase(url: string, name: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`connect-provider: ${name} must be an absolute URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new TypeError(`connect-provider: ${name} must be an http(s) URL`);
  }
  return parsed.href.replace(/\/+$/, '');
}

function isRetryableProblem(error: ProblemError): boolean {
  return error.status === 429 || error.status === 503 || error.retryable === true;
}

/** Creates a typed client for the platform. Throws a TypeError for unusable options. */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const baseUrl = trimBase(options.baseUrl, 'baseUrl');
  const searchUrl = options.searchUrl === undefined ? undefined : trimBase(options.searchUrl, 'searchUrl');
  const hasKey = typeof options.apiKey === 'string' && options.apiKey !== '';
  const hasToken = typeof options.accessToken === 'string' && options.accessToken !== '';
  if (hasKey === hasToken) {
    throw new TypeError('connect-provider: give exactly one of apiKey and accessToken');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('connect-provider: no fetch available; pass options.fetch');
  const timeoutMs = options.timeoutMs ?? 15000;
  const retry = options.retry === false ? { ...DEFAULT_RETRY, retries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
  const authHeaders: Record<string, string> = hasKey
    ? { 'x-api-key': options.apiKey! }
    : { authorization: `Bearer ${options.accessToken!}` };

  function buildUrl(spec: RequestSpec): string {
    let root = baseUrl;
    if (spec.server === 'search') {
      if (!searchUrl) throw new TypeError('connect-provider: searchRecords needs the searchUrl option');
      root = searchUrl;
    }
    const url = new URL(root + spec.path);
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.href;
  }

  async function attempt(url: string, spec: RequestSpec, signal?: AbortSignal): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json, text/plain', ...authHeaders };
    let body: string | undefined;
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.body);
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetchImpl(url, { method: spec.method, headers, body, signal: combined });
      if (!response.ok) throw await problemFromResponse(response);
      return await readAnswer(response, spec.answer);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof ProblemError || error instanceof PlatformRequestError) throw error;
      if (timeout.aborted) {
        throw new PlatformRequestError('timeout', `${spec.method} ${url} got no answer within ${timeoutMs} ms`, { cause: error });
      }
      throw new PlatformRequestError('network', `${spec.method} ${url} failed: ${(error as Error)?.message ?? error}`, {
        cause: error,
      });
    }
  }

  async function send(spec: RequestSpec, callOptions: CallOptions = {}): Promise<unknown> {
    const url = buildUrl(spec);
    const { signal } = callOptions;
    for (let attemptNo = 0; ; attemptNo++) {
      if (signal?.aborted) throw signal.reason;
      try {
        return await attempt(url, spec, signal);
      } catch (error) {
        if (attemptNo >= retry.retries) throw error;
        let wait: number | undefined;
        if (error instanceof ProblemError) {
          if (!isRetryableProblem(error)) throw error;
          if (error.retryAfterMs !== undefined) {
            if (error.retryAfterMs > retry.maxRetryAfterMs) throw error;
            wait = error.retryAfterMs;
          }
        } else if (error instanceof PlatformRequestError) {
          if (error.code === 'invalid_response' || !spec.idempotent) throw error;
        } else {
          throw error;
        }
        await sleep(wait ?? backoffDelay(attemptNo, { baseMs: retry.minDelayMs, maxMs: retry.maxDelayMs }), signal);
      }
    }
  }

  const project = (p: ProjectParams) => `/projects/${segment(p.projectIdOrName, 'projectIdOrName')}`;

  return {
    async listInvites(params, o) {
      return (await send({ method: 'GET', path: `/orgs/${segment(params.orgId, 'orgId')}/invites`, answer: 'json', idempotent: true }, o)) as Invite[];
    },
    async oauthConnect(body, o) {
      return (await send({ method: 'POST', path: '/oauth-connect', body, answer: 'url', idempotent: true }, o)) as string;
    },
    async oauthUpdate(params, o) {
      const path = `${project(params)}/connections/${segment(params.connectionId, 'connectionId')}:oauth-update`;
      return (await send({ method: 'PATCH', path, answer: 'url', idempotent: true }, o)) as string;
    },
    async createProject(body, o) {
      return (await send({ method: 'POST', path: '/projects', body, answer: 'json', idempotent: false }, o)) as Project;
    },
    async getConnection(params, o) {
      const path = `${project(params)}/connections/${segment(params.connectionId, 'connectionId')}`;
      const query = { includeCreds: params.includeCreds, includeRefreshToken: params.includeRefreshToken, refresh: params.refresh };
      return (await send({ method: 'GET', path, query, answer: 'json', idempotent: true }, o)) as Connection;
    },
    async listConnections(params, o) {
      const query = { provider: params.provider, groupRef: params.groupRef, consumerRef: params.consumerRef };
      return (await send({ method: 'GET', path: `${project(params)}/connections`, query, answer: 'json', idempotent: true }, o)) as Connection[];
    },
    async listDestinations(params, o) {
      return (await send({ method: 'GET', path: `${project(params)}/destinations`, answer: 'json', idempotent: true }, o)) as Destination[];
    },
    async deleteDestination(params, o) {
      const path = `${project(params)}/destinations/${segment(params.destination, 'destination')}`;
      await send({ method: 'DELETE', path, answer: 'none', idempotent: true }, o);
    },
    async deleteIntegration(params, o) {
      const path = `${project(params)}/integrations/${segment(params.integrationId, 'integrationId')}`;
      await send({ method: 'DELETE', path, answer: 'none', idempotent: true }, o);
    },
    async deleteTopic(params, o) {
      await send({ method: 'DELETE', path: `${project(params)}/topics/${segment(params.topicId, 'topicId')}`, answer: 'none', idempotent: true }, o);
    },
    async searchRecords(params, o) {
      const path = `${project(params)}/integrations/${segment(params.integrationId, 'integrationId')}`;
      const spec: RequestSpec = {
        method: 'POST', path, server: 'search', query: { groupRef: params.groupRef }, body: params.body, answer: 'json', idempotent: true,
      };
      return (await send(spec, o)) as SearchResult;
    },
    async listTopicDestinationRoutes(params, o) {
      const query = { topicId: params.topicId, destinationId: params.destinationId };
      const path = `${project(params)}/topic-destination-routes`;
      return (await send({ method: 'GET', path, query, answer: 'json', idempotent: true }, o)) as TopicDestinationRoute[];
    },
    async createNotificationEventTopicRoute(params, o) {
      const path = `${project(params)}/notification-event-topic-routes`;
      return (await send({ method: 'POST', path, body: params.body, answer: 'json', idempotent: false }, o)) as NotificationEventTopicRoute;
    },
    async listNotificationEventTopicRoutes(params, o) {
      const query = { topicId: params.topicId, eventType: params.eventType };
      const path = `${project(params)}/notification-event-topic-routes`;
      return (await send({ method: 'GET', path, query, answer: 'json', idempotent: true }, o)) as NotificationEventTopicRoute[];
    },
  };
}

/**
 * Reads a 2xx answer. `url` answers come as a JSON string (the spec) or as
 * text/plain (the real service): both are accepted.
 */
async function readAnswer(response: Response, answer: Answer): Promise<unknown> {
  if (answer === 'none') {
    await response.body?.cancel();
    return undefined;
  }
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const isJson = /\bjson\b/i.test(contentType);
  if (answer === 'url') {
    let url: unknown = text.trim();
    if (isJson) url = parseJson(text, response);
    if (typeof url !== 'string' || url === '') {
      throw new PlatformRequestError('invalid_response', `expected a URL from ${response.url || 'the platform'}, got ${text.slice(0, 100)}`);
    }
    return url;
  }
  return parseJson(text, response);
}

function parseJson(text: string, response: Response): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new PlatformRequestError('invalid_response', `the answer of ${response.url || 'the platform'} is not JSON`, { cause: error });
  }
}
