// Problem Details (RFC 9457) answers: HttpProblem, thrown inside request handling,
// the problems both the host handler (src/server) and the emulator (src/emulator)
// answer, and the answer of a problem. Owned by neither.
import { PROBLEM_CONTENT_TYPE, statusTitle, VALIDATION_PROBLEM_TYPE } from '../shared/problem-details.js';
import type { Problem } from '../shared/types.js';
import { parseUrl } from '../shared/url.js';
import { lowerCaseHeaders, toResponse, type HeaderMap, type ResponseParts } from './response-parts.js';

export interface ProblemInit extends Partial<Problem> {
  status: number;
}

/** An `application/problem+json` answer. `title` defaults to the status's reason phrase. */
export function problemParts(init: ProblemInit, headers?: HeaderMap): ResponseParts {
  const body: Problem = { type: 'about:blank', title: statusTitle(init.status), ...init };
  const h = lowerCaseHeaders(headers);
  h['content-type'] = PROBLEM_CONTENT_TYPE;
  h['cache-control'] = 'no-store';
  return { status: init.status, headers: h, body: JSON.stringify(body) };
}

/** A `application/problem+json` Response. `title` defaults to the status's reason phrase. */
export function problemResponse(init: ProblemInit, headers: HeaderMap = {}): Response {
  return toResponse(problemParts(init, headers));
}

/**
 * A problem's `instance`: the request's own absolute URL without its query (the
 * platform's description types `instance` as an absolute URI); undefined when
 * the URL does not parse, as with a Request-like object that is no Request.
 */
export function instanceOf(request: Request): string | undefined {
  const url = parseUrl(request.url);
  return url && `${url.origin}${url.pathname}`;
}

/** The request's path; undefined when its URL does not parse. */
export function pathnameOf(request: Request): string | undefined {
  return parseUrl(request.url)?.pathname;
}

/** Thrown inside request handling to answer with a problem. */
export class HttpProblem extends Error {
  constructor(
    readonly init: ProblemInit,
    readonly headers: HeaderMap = {},
  ) {
    super(init.detail ?? init.title ?? statusTitle(init.status));
  }
}

/** The client went away (before or while its request was served): 499, its doing, never a failure to report. */
export function clientClosed(detail: string): HttpProblem {
  return new HttpProblem({ status: 499, title: 'Client Closed Request', detail });
}

/** How a request pipeline reads what it threw: whether the client went away, and the 500 of anything else. */
export interface ThrownReading {
  /** Whether the client went away (aborted, or its connection gone): a 499 with `clientGoneDetail`. Asked only of what is no HttpProblem. */
  clientGone: () => boolean;
  clientGoneDetail: string;
  /** The problem of anything else: the pipeline's own failure (a 500), told where the pipeline tells it. */
  internal: (error: unknown) => HttpProblem;
}

/** The problem a request is answered with for what its handling threw: an HttpProblem as it is, else as read. */
export function problemOfThrown(error: unknown, reading: ThrownReading): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (reading.clientGone()) return clientClosed(reading.clientGoneDetail);
  return reading.internal(error);
}

/** A 400 for input that breaks the rules (the handler's and the emulator's one type), with the issues that say where. */
export function invalidRequest(detail: string, issues?: Problem['issues']): HttpProblem {
  return new HttpProblem({
    status: 400,
    type: VALIDATION_PROBLEM_TYPE,
    title: 'Invalid request',
    detail,
    ...(issues ? { issues } : {}),
  });
}

/** A 405 for a method the path does not serve; `allow` lists the ones it does. The method is cut to 20 characters. */
export function methodNotAllowed(method: string, allow: string): HttpProblem {
  return new HttpProblem(
    { status: 405, detail: `${method.slice(0, 20)} is not allowed here; allowed: ${allow}` },
    { allow },
  );
}
