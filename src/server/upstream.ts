// Maps the platform's failures to the browser's Problem Details. Each answer
// is rebuilt from an allow-list: our own type, title and status, the
// platform's detail and issues scrubbed (no API key, no platform address, no
// stack), an issue's value only when it is the browser's own input.
import { PlatformRequestError, ProblemError } from '../api/errors.js';
import type { ProblemIssue } from '../shared/types.js';
import { HttpProblem, invalidRequest } from '../http/http-problem.js';
import { describeThrown, firstLine, HANDLER_PROBLEM_TYPES, ServerFault } from './handler-problems.js';
import type { Scrubber } from './scrub.js';

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
      return invalidRequest(detail || 'the platform refused the request', issues);
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

/** A platform failure as the browser's problem; one that is the server's (5xx) also describes it for the log. */
export function platformFault(error: unknown, operation: string, context: UpstreamContext): HttpProblem {
  // (A browser that went away never shows here: the client is not handed its signal; see stillWanted.)
  const problem = upstreamProblem(error, context);
  if (problem.init.status < 500) return problem;
  const { scrub } = context;
  let cause = 'failed';
  if (error instanceof ProblemError) {
    cause = `answered ${error.status} ${scrub(error.title)}${error.detail ? `: ${firstLine(scrub(error.detail), 160)}` : ''}`;
  } else if (error instanceof PlatformRequestError) {
    cause = firstLine(error.message);
  } else if (error instanceof Error) {
    cause = `threw ${describeThrown(error)}`;
  }
  return new ServerFault(
    problem,
    error instanceof ProblemError || error instanceof PlatformRequestError ? 'platform' : 'internal',
    `platform ${operation} ${cause}`,
    error,
  );
}

/** The platform answered 200 with a body of the wrong shape (`what` it should have been). */
export function invalidAnswer(operation: string, what: string, scrub: Scrubber): ServerFault {
  const error = new PlatformRequestError('invalid_response', `${operation} answered something other than ${what}`);
  return new ServerFault(
    upstreamProblem(error, { scrub }),
    'platform',
    `platform ${operation} answered something other than ${what}`,
    error,
  );
}
