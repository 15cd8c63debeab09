// A typed client for the platform's operations (openapi.yaml), for
// server-side code: it holds the API key, so it never belongs in a browser.
// Requests go through openapi-fetch over the generated `paths` (schema.ts): a
// wrong path, parameter or body is a compile error, and answers are typed
// without casts. Retries, time-outs and Problem Details are this file's.
import createClient, { createQuerySerializer } from 'openapi-fetch';
import type { paths } from '../shared/schema.js';
import type {
  Connection,
  CreateNotificationEventTopicRouteRequest,
  CreateProjectRequest,
  Destination,
  GetConnectionQuery,
  GetProjectQuery,
  Integration,
  Invite,
  ListConnectionsQuery,
  ListNotificationEventTopicRoutesQuery,
  ListTopicDestinationRoutesQuery,
  NotificationEventTopicRoute,
  OAuthConnectRequest,
  Project,
  ProviderApp,
  ProviderInfo,
  SearchRequest,
  SearchResult,
  TopicDestinationRoute,
} from '../shared/types.js';
import { PlatformRequestError, ProblemError, problemFromResponse } from './errors.js';
import { backoffDelay, sleep } from '../shared/retry.js';

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
  /** DELETE /projects/{projectIdOrName}/connections/{connectionId} (beyond the seed) */
  deleteConnection(params: ProjectParams & { connectionId: string }, options?: CallOptions): Promise<void>;
  /** GET /projects/{projectIdOrName}?includeEntitlements= (beyond the seed) */
  getProject(params: ProjectParams & GetProjectQuery, options?: CallOptions): Promise<Project>;
  /** GET /providers/{provider} (beyond the seed; the platform needs no credential for it) */
  getProvider(params: { provider: string }, options?: CallOptions): Promise<ProviderInfo>;
  /** GET /projects/{projectIdOrName}/integrations (beyond the seed) */
  listIntegrations(params: ProjectParams, options?: CallOptions): Promise<Integration[]>;
  /** GET /projects/{projectIdOrName}/provider-apps (beyond the seed) */
  listProviderApps(params: ProjectParams, options?: CallOptions): Promise<ProviderApp[]>;
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

const DEFAULT_RETRY: Required<RetryOptions> = { retries: 3, minDelayMs: 250, maxDelayMs: 5000, maxRetryAfterMs: 30000 };

/** What one attempt hands to openapi-fetch: its time-out signal and the fetch that turns error statuses into ProblemErrors. */
interface AttemptInit {
  signal: AbortSignal;
  fetch: (request: Request) => Promise<Response>;
}

/** One operation as the retry loop sees it. */
interface Operation<T> {
  /** Sends one attempt through openapi-fetch and reads its 2xx answer. */
  call: (init: AttemptInit) => Promise<T>;
  /**
   * Whether a request that may have reached the server can be sent again
   * (network error, time-out). 429 and 503 are retried for every operation:
   * the server did not act on those.
   */
  idempotent: boolean;
}

/**
 * What openapi-fetch builds for each attempt in place of a Request: its URL and init, handed to fetch as they are.
 * A real Request would be built twice per call (by openapi-fetch, then again inside fetch from it), and on Node 20
 * each Request with a signal costs about as much as the rest of a handler's request (npm run bench).
 */
class AttemptRequest {
  /** Read by openapi-fetch (a HEAD answer has no body). */
  readonly method: string;
  constructor(
    readonly url: string,
    readonly init: RequestInit,
  ) {
    this.method = init.method ?? 'GET';
  }
}

// Each path template split once into its literal parts and parameter names (odd indexes).
const templates = new Map<string, string[]>();

/**
 * openapi-fetch's default path serializer for the spec's parameters (openapi.test.ts checks that every one is a plain
 * `{name}` of style simple), with the template's parts kept across calls instead of matched again on each. Every
 * value is a string segment() checked.
 */
function pathSerializer(pathname: string, pathParams: Record<string, unknown> | undefined): string {
  let parts = templates.get(pathname);
  if (parts === undefined) templates.set(pathname, (parts = pathname.split(/\{([^{}]+)\}/)));
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) out += encodeURIComponent(String(pathParams?.[parts[i]])) + parts[i + 1];
  return out;
}

/** Checks a path parameter before anything is sent (openapi-fetch encodes it). */
function segment(value: string, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`connect-provider: ${name} must be a non-empty string`);
  }
  // A URL resolves these segments (encoded or not), so the request would go to another operation.
  if (value === '.' || value === '..') throw new TypeError(`connect-provider: ${name} must not be . or ..`);
  return value;
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
  const apiKey = typeof options.apiKey === 'string' && options.apiKey !== '' ? options.apiKey : undefined;
  const accessToken =
    typeof options.accessToken === 'string' && options.accessToken !== '' ? options.accessToken : undefined;
  if ((apiKey === undefined) === (accessToken === undefined)) {
    throw new TypeError('connect-provider: give exactly one of apiKey and accessToken');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('connect-provider: no fetch available; pass options.fetch');
  const timeoutMs = options.timeoutMs ?? 15000;
  const retry = options.retry === false ? { ...DEFAULT_RETRY, retries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
  const api = createClient<paths>({
    baseUrl,
    // Internal: openapi-fetch reads only `method` of its request and passes it to the attempt's fetch below.
    Request: AttemptRequest as unknown as typeof Request,
    // openapi-fetch's default, made once: given as options it would be made again for every call.
    querySerializer: createQuerySerializer(),
    pathSerializer,
    headers: {
      accept: 'application/json, application/problem+json, text/plain',
      ...(apiKey !== undefined ? { 'x-api-key': apiKey } : { authorization: `Bearer ${accessToken}` }),
    },
  });

  async function attempt<T>(operation: Operation<T>, signal?: AbortSignal): Promise<T> {
    // One controller per attempt, aborted by the time-out or the caller's signal. A plain timer and
    // listener, cleared at the end: AbortSignal.timeout and AbortSignal.any cost far more per request.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    const forward = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', forward, { once: true });
    let sent: { method: string; url: string } | undefined;
    const init: AttemptInit = {
      signal: controller.signal,
      fetch: async (request) => {
        sent = request;
        const response = await (request instanceof AttemptRequest
          ? fetchImpl(request.url, request.init)
          : fetchImpl(request));
        if (!response.ok) throw await problemFromResponse(response);
        return response;
      },
    };
    try {
      return await operation.call(init);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (
        error instanceof ProblemError ||
        error instanceof PlatformRequestError ||
        (error instanceof TypeError && !sent)
      ) {
        throw error;
      }
      const request = sent ? `${sent.method} ${sent.url}` : 'the request';
      if (error instanceof SyntaxError) {
        throw new PlatformRequestError('invalid_response', `the answer to ${request} is not JSON`, { cause: error });
      }
      if (timedOut) {
        throw new PlatformRequestError('timeout', `${request} got no answer within ${timeoutMs} ms`, { cause: error });
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new PlatformRequestError('network', `${request} failed: ${reason}`, { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  async function send<T>(operation: Operation<T>, callOptions: CallOptions = {}): Promise<T> {
    const { signal } = callOptions;
    for (let attemptNo = 0; ; attemptNo++) {
      if (signal?.aborted) throw signal.reason;
      try {
        return await attempt(operation, signal);
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
          if (error.code === 'invalid_response' || !operation.idempotent) throw error;
        } else {
          throw error;
        }
        await sleep(wait ?? backoffDelay(attemptNo, { baseMs: retry.minDelayMs, maxMs: retry.maxDelayMs }), signal);
      }
    }
  }

  const project = (p: ProjectParams) => segment(p.projectIdOrName, 'projectIdOrName');

  return {
    async listInvites(params, o) {
      const path = { orgId: segment(params.orgId, 'orgId') };
      return send(
        {
          idempotent: true,
          call: async (init) => json(await api.GET('/orgs/{orgId}/invites', { params: { path }, ...init })),
        },
        o,
      );
    },
    async oauthConnect(body, o) {
      return send(
        {
          idempotent: true,
          call: async (init) => url(await api.POST('/oauth-connect', { body, parseAs: 'text', ...init })),
        },
        o,
      );
    },
    async oauthUpdate(params, o) {
      const path = { projectIdOrName: project(params), connectionId: segment(params.connectionId, 'connectionId') };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            url(
              await api.PATCH('/projects/{projectIdOrName}/connections/{connectionId}:oauth-update', {
                params: { path },
                parseAs: 'text',
                ...init,
              }),
            ),
        },
        o,
      );
    },
    async createProject(body, o) {
      return send({ idempotent: false, call: async (init) => json(await api.POST('/projects', { body, ...init })) }, o);
    },
    async getConnection(params, o) {
      const path = { projectIdOrName: project(params), connectionId: segment(params.connectionId, 'connectionId') };
      const query = {
        includeCreds: params.includeCreds,
        includeRefreshToken: params.includeRefreshToken,
        refresh: params.refresh,
      };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            json(
              await api.GET('/projects/{projectIdOrName}/connections/{connectionId}', {
                params: { path, query },
                ...init,
              }),
            ),
        },
        o,
      );
    },
    async listConnections(params, o) {
      const path = { projectIdOrName: project(params) };
      const query = { provider: params.provider, groupRef: params.groupRef, consumerRef: params.consumerRef };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            json(await api.GET('/projects/{projectIdOrName}/connections', { params: { path, query }, ...init })),
        },
        o,
      );
    },
    async deleteConnection(params, o) {
      const path = { projectIdOrName: project(params), connectionId: segment(params.connectionId, 'connectionId') };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            none(
              await api.DELETE('/projects/{projectIdOrName}/connections/{connectionId}', {
                params: { path },
                parseAs: 'stream',
                ...init,
              }),
            ),
        },
        o,
      );
    },
    async getProject(params, o) {
      const path = { projectIdOrName: project(params) };
      const query = { includeEntitlements: params.includeEntitlements };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            json(await api.GET('/projects/{projectIdOrName}', { params: { path, query }, ...init })),
        },
        o,
      );
    },
    async getProvider(params, o) {
      const path = { provider: segment(params.provider, 'provider') };
      return send(
        {
          idempotent: true,
          call: async (init) => json(await api.GET('/providers/{provider}', { params: { path }, ...init })),
        },
        o,
      );
    },
    async listIntegrations(params, o) {
      const path = { projectIdOrName: project(params) };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            json(await api.GET('/projects/{projectIdOrName}/integrations', { params: { path }, ...init })),
        },
        o,
      );
    },
    async listProviderApps(params, o) {
      const path = { projectIdOrName: project(params) };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            json(await api.GET('/projects/{projectIdOrName}/provider-apps', { params: { path }, ...init })),
        },
        o,
      );
    },
    async listDestinations(params, o) {
      const path = { projectIdOrName: project(params) };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            json(await api.GET('/projects/{projectIdOrName}/destinations', { params: { path }, ...init })),
        },
        o,
      );
    },
    async deleteDestination(params, o) {
      const path = { projectIdOrName: project(params), destination: segment(params.destination, 'destination') };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            none(
              await api.DELETE('/projects/{projectIdOrName}/destinations/{destination}', {
                params: { path },
                parseAs: 'stream',
                ...init,
              }),
            ),
        },
        o,
      );
    },
    async deleteIntegration(params, o) {
      const path = { projectIdOrName: project(params), integrationId: segment(params.integrationId, 'integrationId') };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            none(
              await api.DELETE('/projects/{projectIdOrName}/integrations/{integrationId}', {
                params: { path },
                parseAs: 'stream',
                ...init,
              }),
            ),
        },
        o,
      );
    },
    async deleteTopic(params, o) {
      const path = { projectIdOrName: project(params), topicId: segment(params.topicId, 'topicId') };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            none(
              await api.DELETE('/projects/{projectIdOrName}/topics/{topicId}', {
                params: { path },
                parseAs: 'stream',
                ...init,
              }),
            ),
        },
        o,
      );
    },
    async searchRecords(params, o) {
      const path = { projectIdOrName: project(params), integrationId: segment(params.integrationId, 'integrationId') };
      if (!searchUrl) throw new TypeError('connect-provider: searchRecords needs the searchUrl option');
      const request = { baseUrl: searchUrl, params: { path, query: { groupRef: params.groupRef } }, body: params.body };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            json(await api.POST('/projects/{projectIdOrName}/integrations/{integrationId}', { ...request, ...init })),
        },
        o,
      );
    },
    async listTopicDestinationRoutes(params, o) {
      const path = { projectIdOrName: project(params) };
      const query = { topicId: params.topicId, destinationId: params.destinationId };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            json(
              await api.GET('/projects/{projectIdOrName}/topic-destination-routes', {
                params: { path, query },
                ...init,
              }),
            ),
        },
        o,
      );
    },
    async createNotificationEventTopicRoute(params, o) {
      const path = { projectIdOrName: project(params) };
      return send(
        {
          idempotent: false,
          call: async (init) =>
            json(
              await api.POST('/projects/{projectIdOrName}/notification-event-topic-routes', {
                params: { path },
                body: params.body,
                ...init,
              }),
            ),
        },
        o,
      );
    },
    async listNotificationEventTopicRoutes(params, o) {
      const path = { projectIdOrName: project(params) };
      const query = { topicId: params.topicId, eventType: params.eventType };
      return send(
        {
          idempotent: true,
          call: async (init) =>
            json(
              await api.GET('/projects/{projectIdOrName}/notification-event-topic-routes', {
                params: { path, query },
                ...init,
              }),
            ),
        },
        o,
      );
    },
  };
}

/** A 2xx answer as openapi-fetch returns it (error statuses never get here: the attempt's fetch throws them). */
interface Answer<T> {
  data?: T;
  response: Response;
}

/** A JSON answer: an empty body is no answer. */
function json<T>({ data, response }: Answer<T>): T {
  if (data === undefined) {
    throw new PlatformRequestError('invalid_response', `the answer of ${response.url || 'the platform'} is empty`);
  }
  return data;
}

/** A URL answer: a JSON string (the spec) or text/plain (the real service); both are accepted. */
function url({ data, response }: Answer<string>): string {
  const text = data ?? '';
  let value: unknown = text.trim();
  if (/\bjson\b/i.test(response.headers.get('content-type') ?? '')) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new PlatformRequestError(
        'invalid_response',
        `the answer of ${response.url || 'the platform'} is not JSON`,
        { cause: error },
      );
    }
  }
  if (typeof value !== 'string' || value === '') {
    throw new PlatformRequestError(
      'invalid_response',
      `expected a URL from ${response.url || 'the platform'}, got ${text.slice(0, 100)}`,
    );
  }
  return value;
}

/** An answer without content: its body, if any, is discarded. */
async function none({ data }: Answer<ReadableStream | null>): Promise<void> {
  await data?.cancel();
}
