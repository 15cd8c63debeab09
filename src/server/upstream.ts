// Maps the platform's failures to the browser's Problem Details, without the
// API key, the platform's URLs or anything else the browser has no need of.
import { PlatformRequestError, ProblemError } from '../api/problem.js';
import type { ProblemIssue } from '../api/types.js';
import { HttpProblem, type ProblemInit } from '../http/problem.js';

export const HANDLER_PROBLEM_TYPES = {
  upstream: 'urn:connect-provider:problem:upstream',
  upstreamTimeout: 'urn:connect-provider:problem:upstream-timeout',
  validation: 'urn:connect-provider:problem:validation',
  forbiddenOrigin: 'urn:connect-provider:problem:forbidden-origin',
  providerNotAllowed: 'urn:connect-provider:problem:provider-not-allowed',
} as const;

/** Removes secrets from text that may come from the platform. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('[redacted]');
  }
  // Any URL the platform mentions stays on the server.
  return out.replace(/\bhttps?:\/\/[^\s"'<>]+/g, '[url]');
}

/** The Browser-facing fields of the platform's issues (body fields the browser sent). */
function browserIssues(issues: ProblemIssue[] | undefined, secrets: readonly string[]): ProblemIssue[] | undefined {
  const kept = issues
    ?.filter((i) => i.in === 'body' || i.in === undefined)
    .map((i) => {
      const out: ProblemIssue = { detail: scrub(i.detail, secrets) };
      if (i.name !== undefined) out.name = i.name;
      if (i.in !== undefined) out.in = i.in;
      if (typeof i.value === 'string' || typeof i.value === 'number' || typeof i.value === 'boolean') out.value = i.value;
      return out;
    });
  return kept && kept.length > 0 ? kept : undefined;
}

/** Turns whatever the platform client threw into the problem the browser gets. */
export function upstreamProblem(error: unknown, secrets: readonly string[]): HttpProblem {
  if (error instanceof ProblemError) {
    const retryAfterSeconds = error.retryAfterMs === undefined ? undefined : Math.ceil(error.retryAfterMs / 1000);
    const headers: Record<string, string> = retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
    const detail = error.detail ? scrub(error.detail, secrets) : undefined;
    if (error.status === 400 || error.status === 422) {
      const init: ProblemInit = {
        status: 400,
        type: HANDLER_PROBLEM_TYPES.validation,
        title: 'Invalid request',
        detail: detail ?? 'the platform refused the request',
      };
      const issues = browserIssues(error.issues, secrets);
      if (issues) init.issues = issues;
      return new HttpProblem(init);
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
    const retryable = error.status === 503 || error.retryable === true;
    return new HttpProblem(
      {
        status: error.status === 503 ? 503 : 502,
        type: HANDLER_PROBLEM_TYPES.upstream,
        title: error.status === 503 ? 'Service Unavailable' : 'Bad Gateway',
        detail: `the platform answered ${error.status}`,
        retryable,
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
