// A typed client for the platform's operations (openapi.yaml), for
// server-side code: it holds the API key, so it never belongs in a browser.
// Requests go through openapi-fetch over the generated `paths` (schema.ts): a
// wrong path, parameter or body is a compile error, and answers are typed
// without casts. The credential, the path checks and Problem Details are
// openapi-fetch middleware, and so is the bound on the size of an answer (answer-limit.ts); time-outs and retries
// wrap each call.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../shared/schema.js';
import { parseUrl } from '../shared/url.js';
import type {
  Connection,
  CreateNotificationEventTopicRouteRequest,
  CreateProjectRequest,
  Destination,
  GenerateConnectionRequest,
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
  UpdateConnectionRequest,
} from '../shared/types.js';
import { PlatformRequestError, ProblemError, problemFromResponse } from './errors.js';
import { backoffDelay, sleep } from '../shared/retry.js';
import { answerLimit, MAX_ANSWER_BYTES } from './answer-limit.js';

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
  /**
   * The budget of a whole call in ms (default 15000): its attempts and the waits between them. An attempt gets what
   * is left of it; a wait that would end past it is not waited (the last error is thrown), so a call never takes
   * longer, and a time-out is never retried.
   */
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
  /**
   * POST /projects/{projectIdOrName}/connections:generate (beyond the seed): a connection made with the user's
   * credentials (the one kind the provider's scheme takes), answered without them, in status `created`.
   */
  generateConnection(
    params: ProjectParams & { body: GenerateConnectionRequest },
    options?: CallOptions,
  ): Promise<Connection>;
  /**
   * PATCH /projects/{projectIdOrName}/connections/{connectionId} (beyond the seed): changes the fields `updateMask`
   * names (new credentials of the connection's scheme, its workspace or metadata); answers the connection.
   */
  updateConnection(
    params: ProjectParams & { connectionId: string; body: UpdateConnectionRequest },
    options?: CallOptions,
  ): Promise<Connection>;
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

/** What each attempt adds to an openapi-fetch call: its time-out signal and a fetch that records what it sent. */
interface AttemptInit {
  signal: AbortSignal;
  fetch: (request: Request) => Promise<Response>;
}

/** Checks a path parameter before anything is sent (openapi-fetch encodes it). */
function checkSegment(value: unknown, name: string): void {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`connect-provider: ${name} must be a non-empty string`);
  }
  // A URL resolves these segments (encoded or not), so the request would go to another operation.
  if (value === '.' || value === '..') throw new TypeError(`connect-provider: ${name} must not be . or ..`);
}

/** Refuses, before the request is sent, a path parameter that is no usable segment. */
const pathChecks: Middleware = {
  onRequest({ params }) {
    for (const [name, value] of Object.entries(params.path ?? {})) checkSegment(value, name);
  },
};

/**
 * Turns every error status into a ProblemError (RFC 9457), whatever the body; a 3xx is one too (never followed). An
 * answer that a `fetch` of the caller's reached by following a redirect anyway is refused, not taken as the platform's.
 */
const problems: Middleware = {
  async onResponse({ response }) {
    if (response.redirected) {
      await response.body?.cancel().catch(() => {});
      throw new PlatformRequestError('invalid_response', 'the answer came through a redirect, which is never followed');
    }
    if (!response.ok) throw await problemFromResponse(response);
  },
};

/** Sets the credential on every request. */
function credential(name: string, value: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set(name, value);
    },
  };
}

function trimBase(url: string, name: string): string {
  const parsed = parseUrl(url);
  if (!parsed) throw new TypeError(`connect-provider: ${name} must be an absolute URL, got ${JSON.stringify(url)}`);
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
    headers: { accept: 'application/json, application/problem+json, text/plain' },
    // The credential goes to baseUrl's origin and nowhere else: a redirect is never followed (fetch would send
    // X-Api-Key on to any origin, and from https to http), so a 3xx is an error status like any other.
    redirect: 'manual',
  });
  api.use(
    apiKey !== undefined ? credential('x-api-key', apiKey) : credential('authorization', `Bearer ${accessToken}`),
    pathChecks,
    // Middleware answers in reverse order: problems (error statuses, redirects) first, then the 2xx bound.
    answerLimit(MAX_ANSWER_BYTES),
    problems,
  );

  /**
   * One attempt: openapi-fetch builds and sends a fresh Request, aborted once `budgetMs` (what is left of the call's
   * timeoutMs) has passed or by the caller's signal.
   */
  async function callOnce<T>(
    call: (init: AttemptInit) => Promise<T>,
    budgetMs: number,
    signal?: AbortSignal,
  ): Promise<T> {
    // A plain timer and listener, cleared at the end: AbortSignal.any would hold the caller's signal.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
    }, budgetMs);
    const forwardAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    let sent: Request | undefined;
    const fetch = (request: Request) => {
      sent = request;
      return fetchImpl(request);
    };
    try {
      return await call({ signal: controller.signal, fetch });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // Refused before sending (a path check, an unusable URL): the caller's mistake, thrown as it is.
      if (error instanceof ProblemError || error instanceof PlatformRequestError || !sent) throw error;
      const request = `${sent.method} ${sent.url}`;
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
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  /**
   * Calls until an attempt succeeds, the retry policy gives up or the call's budget (timeoutMs) is spent. 429 and 503
   * (and problems marked retryable) are retried for every operation, since the server did not act on those; a network
   * error only when `idempotent`, since the request may have reached the server. A time-out spends the budget: it is
   * never retried.
   */
  async function callWithRetries<T>(
    idempotent: boolean,
    options: CallOptions | undefined,
    call: (init: AttemptInit) => Promise<T>,
  ): Promise<T> {
    const signal = options?.signal;
    const deadline = performance.now() + timeoutMs;
    for (let attemptNo = 0; ; attemptNo++) {
      if (signal?.aborted) throw signal.reason;
      try {
        return await callOnce(call, deadline - performance.now(), signal);
      } catch (error) {
        if (attemptNo >= retry.retries || !worthRetrying(error, idempotent)) throw error;
        const asked = error instanceof ProblemError ? error.retryAfterMs : undefined;
        const wait = asked ?? backoffDelay(attemptNo, { baseMs: retry.minDelayMs, maxMs: retry.maxDelayMs });
        // No attempt could start within the budget: the error is the call's answer now, not after the wait.
        if (performance.now() + wait >= deadline) throw error;
        await sleep(wait, signal);
      }
    }
  }

  /** A problem the platform did not act on, within the wait allowed; a lost answer when sending twice is safe. */
  function worthRetrying(error: unknown, idempotent: boolean): boolean {
    if (error instanceof ProblemError) {
      return isRetryableProblem(error) && (error.retryAfterMs ?? 0) <= retry.maxRetryAfterMs;
    }
    // Anything else (the caller's abort, a call refused before sending) is thrown as it is.
    return error instanceof PlatformRequestError && error.code !== 'invalid_response' && idempotent;
  }

  const project = (p: ProjectParams) => ({ projectIdOrName: p.projectIdOrName });

  // Every operation as one entry: its idempotence, its openapi-fetch call and how its answer is read.
  return {
    listInvites: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(api.GET('/orgs/{orgId}/invites', { params: { path: { orgId: p.orgId } }, ...i })),
      ),
    // Each oauth-connect or oauth-update makes a new consent link: never sent again once it may have arrived.
    oauthConnect: (body, o) =>
      callWithRetries(false, o, (i) => expectUrl(api.POST('/oauth-connect', { body, parseAs: 'text', ...i }))),
    oauthUpdate: (p, o) =>
      callWithRetries(false, o, (i) =>
        expectUrl(
          api.PATCH('/projects/{projectIdOrName}/connections/{connectionId}:oauth-update', {
            params: { path: { ...project(p), connectionId: p.connectionId } },
            parseAs: 'text',
            ...i,
          }),
        ),
      ),
    createProject: (body, o) => callWithRetries(false, o, (i) => expectJson(api.POST('/projects', { body, ...i }))),
    getConnection: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(
          api.GET('/projects/{projectIdOrName}/connections/{connectionId}', {
            params: {
              path: { ...project(p), connectionId: p.connectionId },
              query: { includeCreds: p.includeCreds, includeRefreshToken: p.includeRefreshToken, refresh: p.refresh },
            },
            ...i,
          }),
        ),
      ),
    listConnections: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(
          api.GET('/projects/{projectIdOrName}/connections', {
            params: {
              path: project(p),
              query: { provider: p.provider, groupRef: p.groupRef, consumerRef: p.consumerRef },
            },
            ...i,
          }),
        ),
      ),
    deleteConnection: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectNoContent(
          api.DELETE('/projects/{projectIdOrName}/connections/{connectionId}', {
            params: { path: { ...project(p), connectionId: p.connectionId } },
            parseAs: 'stream',
            ...i,
          }),
        ),
      ),
    // Not sent twice: a lost answer may hide a connection made, and a second one would be another request's doing.
    generateConnection: (p, o) =>
      callWithRetries(false, o, (i) =>
        expectJson(
          api.POST('/projects/{projectIdOrName}/connections:generate', {
            params: { path: project(p) },
            body: p.body,
            ...i,
          }),
        ),
      ),
    // The same fields set to the same values again leave the connection as the first call did.
    updateConnection: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(
          api.PATCH('/projects/{projectIdOrName}/connections/{connectionId}', {
            params: { path: { ...project(p), connectionId: p.connectionId } },
            body: p.body,
            ...i,
          }),
        ),
      ),
    getProject: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(
          api.GET('/projects/{projectIdOrName}', {
            params: { path: project(p), query: { includeEntitlements: p.includeEntitlements } },
            ...i,
          }),
        ),
      ),
    getProvider: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(api.GET('/providers/{provider}', { params: { path: { provider: p.provider } }, ...i })),
      ),
    listIntegrations: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(api.GET('/projects/{projectIdOrName}/integrations', { params: { path: project(p) }, ...i })),
      ),
    listProviderApps: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(api.GET('/projects/{projectIdOrName}/provider-apps', { params: { path: project(p) }, ...i })),
      ),
    listDestinations: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(api.GET('/projects/{projectIdOrName}/destinations', { params: { path: project(p) }, ...i })),
      ),
    deleteDestination: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectNoContent(
          api.DELETE('/projects/{projectIdOrName}/destinations/{destination}', {
            params: { path: { ...project(p), destination: p.destination } },
            parseAs: 'stream',
            ...i,
          }),
        ),
      ),
    deleteIntegration: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectNoContent(
          api.DELETE('/projects/{projectIdOrName}/integrations/{integrationId}', {
            params: { path: { ...project(p), integrationId: p.integrationId } },
            parseAs: 'stream',
            ...i,
          }),
        ),
      ),
    deleteTopic: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectNoContent(
          api.DELETE('/projects/{projectIdOrName}/topics/{topicId}', {
            params: { path: { ...project(p), topicId: p.topicId } },
            parseAs: 'stream',
            ...i,
          }),
        ),
      ),
    searchRecords: async (p, o) => {
      if (!searchUrl) throw new TypeError('connect-provider: searchRecords needs the searchUrl option');
      return callWithRetries(true, o, (i) =>
        expectJson(
          api.POST('/projects/{projectIdOrName}/integrations/{integrationId}', {
            baseUrl: searchUrl,
            params: { path: { ...project(p), integrationId: p.integrationId }, query: { groupRef: p.groupRef } },
            body: p.body,
            ...i,
          }),
        ),
      );
    },
    listTopicDestinationRoutes: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(
          api.GET('/projects/{projectIdOrName}/topic-destination-routes', {
            params: { path: project(p), query: { topicId: p.topicId, destinationId: p.destinationId } },
            ...i,
          }),
        ),
      ),
    createNotificationEventTopicRoute: (p, o) =>
      callWithRetries(false, o, (i) =>
        expectJson(
          api.POST('/projects/{projectIdOrName}/notification-event-topic-routes', {
            params: { path: project(p) },
            body: p.body,
            ...i,
          }),
        ),
      ),
    listNotificationEventTopicRoutes: (p, o) =>
      callWithRetries(true, o, (i) =>
        expectJson(
          api.GET('/projects/{projectIdOrName}/notification-event-topic-routes', {
            params: { path: project(p), query: { topicId: p.topicId, eventType: p.eventType } },
            ...i,
          }),
        ),
      ),
  };
}

/** A 2xx answer as openapi-fetch returns it (error statuses never get here: the problems middleware throws them). */
interface FetchSuccess<T> {
  data?: T;
  response: Response;
}

/** A JSON answer: an empty body is no answer. */
async function expectJson<T>(call: Promise<FetchSuccess<T>>): Promise<T> {
  const { data, response } = await call;
  if (data === undefined) {
    throw new PlatformRequestError('invalid_response', `the answer of ${response.url || 'the platform'} is empty`);
  }
  return data;
}

/** A URL answer: a JSON string (the spec) or text/plain (the real service); both are accepted. */
async function expectUrl(call: Promise<FetchSuccess<string>>): Promise<string> {
  const { data, response } = await call;
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
async function expectNoContent(call: Promise<FetchSuccess<ReadableStream | null>>): Promise<void> {
  await (await call).data?.cancel();
}
