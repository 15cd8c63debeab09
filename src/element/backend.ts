// Internal: requests to the host backend's connect routes (docs/server.md):
// one attempt, its answer read as JSON, a failure thrown as a BackendError
// that says whether to try again and when.
import type { Connection, Problem } from '../shared/types.js';
import { withoutCredentials } from '../shared/credentials.js';
import { backoffDelay, parseRetryAfter } from '../shared/retry.js';
import { parseUrl } from '../shared/url.js';

/** A failed request to the backend. */
export class BackendError extends Error {
  override name = 'BackendError';
  constructor(
    /** `network_error`: no answer; `http_error`: an answer that is a failure. */
    readonly code: 'http_error' | 'network_error',
    message: string,
    readonly retryable: boolean,
    readonly problem?: Problem,
    readonly retryAfterMs?: number,
    /** The answer is not a connect backend's (an HTML page, a bare 404): the route is missing. */
    readonly notBackend = false,
  ) {
    super(message);
  }
}

/** The path of one connection. */
export const connectionPath = (id: string): string => `/connections/${encodeURIComponent(id)}`;

/** The connections in an answer's items, without credentials. */
export const toConnections = (items: unknown[]): Connection[] =>
  items
    .filter((c): c is Connection => !!c && typeof c === 'object' && typeof (c as Connection).id === 'string')
    .map(withoutCredentials);

/** The endpoint as a base URL without trailing slashes. */
export const baseOf = (endpoint: string): string => endpoint.replace(/\/+$/, '');

/**
 * The endpoint as this page resolves it: an absolute URL without trailing slashes (`/api/connect` on
 * https://app.example/settings is https://app.example/api/connect); as written when it does not resolve.
 */
export function absoluteEndpoint(endpoint: string): string {
  const url = parseUrl(endpoint, typeof document === 'undefined' ? undefined : document.baseURI);
  return url ? baseOf(url.href) : endpoint;
}

/**
 * One request to `url` (the endpoint's, then a path such as `/connections`); resolves with the parsed answer and the
 * backend's clock (its Date header), or throws a BackendError.
 */
export async function callBackend(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<{ data: unknown; date: number }> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      headers: body ? { 'content-type': 'application/json', ...headers } : headers,
      body: body ? JSON.stringify(body) : null,
      credentials: 'include',
      cache: 'no-store',
      signal,
    });
    text = await response.text();
  } catch {
    throw new BackendError('network_error', 'the server could not be reached', true);
  }
  const { status, ok } = response;
  const date = Date.parse(response.headers.get('date')!);
  const type = response.headers.get('content-type') ?? '';
  /** A 5xx or a 429: a failure that may pass. */
  const mayPass = status >= 500 || status === 429;
  // A proxy's HTML error page with a 5xx or 429 is a failure that may pass like any other, not a missing route.
  if (!mayPass && (/html/.test(type) || (status === 404 && !/json/.test(type)))) {
    throw new BackendError(
      'http_error',
      `${method} ${url} answered ${status}${type ? ` ${type}` : ''}, not a connect backend`,
      false,
      { status },
      undefined,
      true,
    );
  }
  let data: unknown = text;
  if (/json/.test(type)) {
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      throw new BackendError('http_error', `malformed JSON (${status})`, status >= 500);
    }
  }
  if (ok) return { data, date };
  const problem = data && typeof data === 'object' ? (data as Problem) : { status };
  throw new BackendError(
    'http_error',
    problem.detail || problem.title || `the server answered ${status}`,
    problem.retryable ?? mayPass,
    problem,
    parseRetryAfter(response.headers.get('retry-after')) ?? parseRetryAfter(problem.retryAfter),
  );
}

export interface RetryPolicy {
  /** First backoff delay in ms. */
  baseMs: number;
  /** Failures in a row before giving up. */
  maxFailures: number;
  /** Longest single wait in ms; a Retry-After beyond it gives up at once. */
  maxDelayMs: number;
  /** Total ms the retries may wait, from the first failure. */
  budgetMs: number;
}

/** Ms to wait before the next try after the n-th failure in a row, or undefined to give up. */
export function retryDelay(error: unknown, failures: number, waited: number, policy: RetryPolicy): number | undefined {
  if (!(error instanceof BackendError) || !error.retryable || failures > policy.maxFailures) return undefined;
  // A Retry-After longer than the longest wait is a "not now" this flow cannot wait out: it ends with it.
  const wait = error.retryAfterMs ?? backoffDelay(failures - 1, { baseMs: policy.baseMs, maxMs: policy.maxDelayMs });
  if (wait > policy.maxDelayMs) return undefined;
  return waited + wait > policy.budgetMs ? undefined : wait;
}
