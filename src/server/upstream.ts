// Maps the platform's failures to the browser's Problem Details. Each answer
// is rebuilt from an allow-list: our own type, title and status, the
// platform's detail and issues scrubbed (no API key, no platform address, no
// stack), an issue's value only when it is the browser's own input.
import { PlatformRequestError, ProblemError } from '../api/errors.js';
import type { ProblemIssue } from '../shared/types.js';
import { HttpProblem } from '../http/problem.js';
import { parseAllowedUrl } from '../shared/url.js';
import type { Scrubber } from './scrub.js';

export const HANDLER_PROBLEM_TYPES = {
  upstream: 'urn:connect-provider:problem:upstream',
  upstreamTimeout: 'urn:connect-provider:problem:upstream-timeout',
  /** The platform answered a URL the browser must not be sent to (not https, or http off loopback). */
  unusableUrl: 'urn:connect-provider:problem:unusable-url',
  /** The platform does not know the configured project, or baseUrl does not point at its API. */
  misconfigured: 'urn:connect-provider:problem:misconfigured',
  validation: 'urn:connect-provider:problem:validation',
  forbiddenOrigin: 'urn:connect-provider:problem:forbidden-origin',
  badHost: 'urn:connect-provider:problem:bad-host',
  providerNotAllowed: 'urn:connect-provider:problem:provider-not-allowed',
} as const;

const MAX_ISSUES = 20;

/** The browser's own value at an issue's `name` (`a.b`, `a[0]`, `/a/b` or `body.a`), if it sent one. */
function browserValue(input: Record<string, unknown> | undefined, name: string): unknown {
  if (!input) return undefined;
  const path = name
    .replace(/^#/, '') // a JSON pointer's fragment mark; its slashes split below
    .replace(/^body[./]/, '')
    .split(/[./]|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '');
  let value: unknown = input;
  for (const part of path) {
    if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, part))
      return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The issues about what the browser sent, each field allow-listed and scrubbed. */
function browserIssues(
  issues: ProblemIssue[] | undefined,
  scrub: Scrubber,
  input: Record<string, unknown> | undefined,
): ProblemIssue[] | undefined {
  if (!Array.isArray(issues)) return undefined;
  const kept: ProblemIssue[] = [];
  for (const issue of issues.slice(0, MAX_ISSUES)) {
    if (issue.in !== undefined && issue.in !== 'body') continue;
    const out: ProblemIssue = { detail: typeof issue.detail === 'string' ? scrub(issue.detail) : '' };
    out.in = 'body';
    if (typeof issue.name === 'string') {
      out.name = scrub(issue.name);
      const value = issue.value;
      const own = browserValue(input, issue.name);
      const primitive = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
      if (primitive && own === value && (typeof value !== 'string' || scrub.isClean(value))) out.value = value;
    }
    kept.push(out);
  }
  return kept.length > 0 ? kept : undefined;
}

export interface UpstreamContext {
  scrub: Scrubber;
  /** What the browser sent (oauth-connect's body), to tell its own values in issues. */
  input?: Record<string, unknown>;
}

/** A 502 that tells the app's developer the handler's options point at the wrong place. */
export function misconfiguredProblem(): HttpProblem {
  return new HttpProblem({
    status: 502,
    type: HANDLER_PROBLEM_TYPES.misconfigured,
    title: 'Bad Gateway',
    detail: 'the platform does not know this project: check baseUrl and project in the connect handler options',
    retryable: false,
  });
}

/** Turns whatever the platform client threw into the problem the browser gets. */
export function upstreamProblem(error: unknown, context: UpstreamContext): HttpProblem {
  const { scrub } = context;
  if (error instanceof ProblemError) {
    const retryAfterSeconds = error.retryAfterMs === undefined ? undefined : Math.ceil(error.retryAfterMs / 1000);
    const headers: Record<string, string> =
      retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.min(retryAfterSeconds, 3600)) };
    if (error.status === 400 || error.status === 422) {
      const detail = typeof error.detail === 'string' ? scrub(error.detail) : '';
      const issues = browserIssues(error.issues, scrub, context.input);
      return new HttpProblem({
        status: 400,
        type: HANDLER_PROBLEM_TYPES.validation,
        title: 'Invalid request',
        detail: detail || 'the platform refused the request',
        ...(issues ? { issues } : {}),
      });
    }
    if (error.status === 404) return new HttpProblem({ status: 404, detail: 'no such connection' });
    if (error.status === 429) {
      return new HttpProblem(
        { status: 429, detail: 'the platform is rate limiting this app; try again shortly', retryable: true },
        headers,
      );
    }
    if (error.status === 401 || error.status === 403) {
      // Internal: the browser's user is not at fault; the server's platform credentials are.
      return new HttpProblem({
        status: 502,
        type: HANDLER_PROBLEM_TYPES.upstream,
        title: 'Bad Gateway',
        detail: "the platform refused this server's credentials",
        retryable: false,
      });
    }
    const unavailable = error.status === 503;
    return new HttpProblem(
      {
        status: unavailable ? 503 : 502,
        type: HANDLER_PROBLEM_TYPES.upstream,
        title: unavailable ? 'Service Unavailable' : 'Bad Gateway',
        detail: `the platform answered ${error.status}`,
        retryable: unavailable || error.retryable === true,
      },
      headers,
    );
  }
  if (error instanceof PlatformRequestError) {
    if (error.code === 'timeout') {
      return new HttpProblem({
        status: 504,
        type: HANDLER_PROBLEM_TYPES.upstreamTimeout,
        title: 'Gateway Timeout',
        detail: 'the platform did not answer in time',
        retryable: true,
      });
    }
    return new HttpProblem({
      status: 502,
      type: HANDLER_PROBLEM_TYPES.upstream,
      title: 'Bad Gateway',
      detail: error.code === 'network' ? 'the platform could not be reached' : 'the platform gave an unreadable answer',
      retryable: error.code === 'network',
    });
  }
  return new HttpProblem({ status: 500, detail: 'the connect handler failed' });
}

/** Whether a URL from the platform may be sent to the browser: the shared rule, and http only from a loopback platform. */
export function isUsableUrl(url: string, platformIsLoopback: boolean): URL | null {
  const parsed = parseAllowedUrl(url);
  return parsed && (parsed.protocol === 'https:' || platformIsLoopback) ? parsed : null;
}

export function unusableUrlProblem(): HttpProblem {
  return new HttpProblem({
    status: 502,
    type: HANDLER_PROBLEM_TYPES.unusableUrl,
    title: 'Bad Gateway',
    detail:
      'the platform answered an unusable URL (only https, or http on a loopback platform, is sent to the browser)',
    retryable: false,
  });
}
