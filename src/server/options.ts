// The handler's options, checked once when it is created: a misconfiguration
// fails at start-up with a TypeError that says what to fix.
import type { RetryOptions } from '../api/client.js';
import { isLoopbackHost, parseUrl } from '../shared/url.js';

/** Who is calling, as the host app knows it. Group and consumer are never taken from the browser. */
export interface ConnectUser {
  groupRef: string;
  consumerRef: string;
  groupName?: string;
  consumerName?: string;
}

/** What the handler reports to `onError`: a failure the app's developer, not the browser's user, should see. */
export interface ConnectHandlerErrorInfo {
  /**
   * `misconfigured`: the platform does not know the project or baseUrl is wrong; `platform`: the platform failed,
   * refused the key or answered something unusable; `authorize`: the app's authorize() threw, or returned neither a user nor null;
   * `internal`: a bug.
   */
  kind: 'misconfigured' | 'platform' | 'authorize' | 'internal';
  /** One line for a log, without the API key or the browser's data. */
  message: string;
  /** The status the browser was answered. */
  status: number;
  method: string;
  path: string;
  /** What was thrown, as a plain value: see {@link ConnectHandlerReportedError}. */
  error: ConnectHandlerReportedError;
}

/**
 * What was thrown, for a logger that wants the details: a plain object of these fields only (`JSON.stringify` logs
 * all of it), never the thrown value itself. In every string of it the API key and the credential the browser sent
 * (any case, as is and URL-encoded) are replaced by `[redacted]`; it may hold the platform's address, as the server's
 * own log may.
 */
export interface ConnectHandlerReportedError {
  /**
   * Its `name` (`ProblemError`, `PlatformRequestError`, `TypeError`...; `object` for an object without one), or,
   * for a thrown value that is not an object, its type (`string`, `undefined`...).
   */
  name: string;
  /** Its message; for a thrown value that is not an object, its text. */
  message: string;
  /** A platform problem's HTTP status. */
  status?: number;
  /** A platform problem's title. */
  title?: string;
  /** A platform problem's detail. */
  detail?: string;
  /** The platform's ID of the failed request, for its support. */
  requestId?: string;
  /**
   * Why a platform request got no usable answer (`network`, `timeout`, `invalid_response`), or a system error's code
   * (`ECONNREFUSED`).
   */
  code?: string;
  /** Where it was thrown: the server's own stack trace (it never reaches the browser). */
  stack?: string;
  /** What caused it, the same way, at most 4 causes deep. */
  cause?: ConnectHandlerReportedError;
}

export interface ConnectHandlerOptions {
  /** The platform API key. It never leaves the server. */
  apiKey: string;
  /** The platform's base URL, ending in /v1. */
  baseUrl: string;
  /** The platform project's ID or name. */
  project: string;
  /**
   * Decides who the caller is from the request (its session cookie, token...); null answers 401. Anything else that
   * is no user (undefined, the app's own user object) answers a non-retryable 500 and is reported to onError.
   */
  authorize: (request: Request) => ConnectUser | null | Promise<ConnectUser | null>;
  /** Providers the browser may ask for; others answer 400 (404 for provider info), and lists hold only these. Default: any the platform knows. */
  providers?: readonly string[];
  /** Serves `DELETE {endpoint}/connections/{id}` for the caller group's connections (default false: 405). */
  allowDisconnect?: boolean;
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
  /**
   * Called for each failure that is the server's, not the browser's (default: one console.error line). It may be
   * async; whatever it throws, or a promise it returns rejects with, is ignored and never changes the answer.
   */
  onError?: (info: ConnectHandlerErrorInfo) => unknown;
}

const KNOWN = new Set([
  'apiKey',
  'baseUrl',
  'project',
  'authorize',
  'providers',
  'allowDisconnect',
  'allowedOrigins',
  'messageOrigin',
  'bodyLimit',
  'timeoutMs',
  'retry',
  'fetch',
  'onError',
]);

function fail(message: string): never {
  throw new TypeError(`connect-provider: ${message}`);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function checkedOrigin(value: unknown, name: string): string {
  if (typeof value !== 'string')
    fail(`${name} must be an origin string like "https://app.example", got ${describeValue(value)}`);
  const parsed = parseUrl(value);
  if (!parsed) fail(`${name} must be an origin like "https://app.example", got ${JSON.stringify(value)}`);
  if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== value) {
    fail(
      `${name} must be an origin (scheme, host and port only) like "${parsed.origin}", got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function positiveInteger(value: unknown, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max) {
    fail(`${name} must be a whole number from 1 to ${max}, got ${describeValue(value)}`);
  }
  return value;
}

/** The checked options, with their defaults. */
export interface ResolvedOptions {
  apiKey: string;
  baseUrl: string;
  project: string;
  platformIsLoopback: boolean;
  messageOrigin: string;
  providers?: ReadonlySet<string>;
  allowDisconnect: boolean;
  allowedOrigins: ReadonlySet<string>;
  bodyLimit: number;
  timeoutMs: number;
  retry: RetryOptions | false;
  warnings: string[];
}

/** Checks createConnectHandler's options; throws a TypeError naming the option and what it should be. */
export function resolveOptions(options: ConnectHandlerOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail(`createConnectHandler(options) needs an options object, got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) fail(`unknown option ${JSON.stringify(key)} (known: ${[...KNOWN].join(', ')})`);
  }
  const { apiKey, baseUrl, project } = options;
  if (typeof apiKey !== 'string' || apiKey.trim() === '')
    fail(`apiKey is required: the platform API key, a non-empty string`);
  if (/[^\x21-\x7e]/.test(apiKey))
    fail('apiKey holds spaces or characters that cannot go in an HTTP header; check how it is read');
  if (typeof project !== 'string' || project.trim() === '')
    fail('project is required: the platform project ID or name');
  if (typeof options.authorize !== 'function')
    fail(`authorize(request) is required: a function, got ${describeValue(options.authorize)}`);
  if (typeof baseUrl !== 'string')
    fail(`baseUrl must be the platform's URL ending in /v1, got ${describeValue(baseUrl)}`);
  const base = parseUrl(baseUrl);
  if (!base)
    fail(`baseUrl must be an absolute URL ending in /v1 like "https://api.example/v1", got ${JSON.stringify(baseUrl)}`);
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    fail(`baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  if (base.username || base.password || base.search || base.hash) {
    fail('baseUrl must not hold credentials, a query or a fragment: the API key goes in apiKey');
  }
  if (!/\/v1\/?$/.test(base.pathname)) {
    fail(
      `baseUrl must end in /v1 (the platform API's version prefix), got ${JSON.stringify(baseUrl)}; did you mean "${base.origin}${base.pathname.replace(/\/+$/, '')}/v1"?`,
    );
  }
  const platformIsLoopback = isLoopbackHost(base.hostname);
  const warnings: string[] = [];
  if (base.protocol === 'http:' && !platformIsLoopback) {
    warnings.push(
      `baseUrl ${base.origin} is plain http on a host that is not loopback: the API key crosses the network in clear`,
    );
  }
  let providers: ReadonlySet<string> | undefined;
  if (options.providers !== undefined) {
    const list = options.providers as unknown;
    if (!Array.isArray(list))
      fail(`providers must be an array of provider names like ['salesforce'], got ${describeValue(list)}`);
    for (const name of list) {
      if (typeof name !== 'string' || name.trim() === '')
        fail(`providers must hold provider names (non-empty strings), got ${describeValue(name)}`);
    }
    if (list.length === 0)
      fail('providers is an empty array: no provider could be connected; leave it out to allow any');
    providers = new Set(list as string[]);
  }
  const allowDisconnect = options.allowDisconnect as unknown;
  if (allowDisconnect !== undefined && typeof allowDisconnect !== 'boolean')
    fail(`allowDisconnect must be true or false, got ${describeValue(allowDisconnect)}`);
  const allowedList = options.allowedOrigins as unknown;
  if (allowedList !== undefined && !Array.isArray(allowedList)) {
    fail(`allowedOrigins must be an array of origins like ['https://app.example'], got ${describeValue(allowedList)}`);
  }
  const allowedOrigins = new Set(
    ((allowedList as unknown[] | undefined) ?? []).map((o, i) => checkedOrigin(o, `allowedOrigins[${i}]`)),
  );
  const messageOrigin =
    options.messageOrigin === undefined ? base.origin : checkedOrigin(options.messageOrigin, 'messageOrigin');
  for (const name of ['fetch', 'onError'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function')
      fail(`${name} must be a function, got ${describeValue(options[name])}`);
  }
  const retry = options.retry;
  if (retry !== undefined && retry !== false && (typeof retry !== 'object' || retry === null || Array.isArray(retry))) {
    fail(`retry must be false or an object like { retries: 2 }, got ${describeValue(retry)}`);
  }
  return {
    apiKey,
    baseUrl: base.href.replace(/\/+$/, ''),
    project,
    platformIsLoopback,
    messageOrigin,
    ...(providers ? { providers } : {}),
    allowDisconnect: allowDisconnect === true,
    allowedOrigins,
    bodyLimit: positiveInteger(options.bodyLimit, 'bodyLimit', 1024 * 1024) ?? 16 * 1024,
    timeoutMs: positiveInteger(options.timeoutMs, 'timeoutMs', 600000) ?? 8000,
    retry: retry ?? { retries: 2, minDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 3000 },
    warnings,
  };
}
