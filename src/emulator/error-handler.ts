// The emulator's one error handler: whatever a request's route threw becomes
// an RFC 9457 problem (JSON), or an HTML error page for a browser on the
// consent pages. No answer echoes a request whole, nor shows a stack.
import { HttpProblem, problemOfThrown, problemResponse, type ProblemInit } from '../http/http-problem.js';
import { isClientGone } from '../http/client-gone.js';
import { statusTitle } from '../shared/problem-details.js';
import { boundIssue, cut, LIMITS } from './limits.js';
import { errorPage } from './pages.js';

/** A problem whose detail and issues are bounded (LIMITS), whatever raised it: no answer echoes a request whole. */
function bounded(init: ProblemInit): ProblemInit {
  const out: ProblemInit = { ...init };
  if (typeof init.detail === 'string') out.detail = cut(init.detail, LIMITS.problemDetailChars);
  if (Array.isArray(init.issues)) out.issues = init.issues.slice(0, LIMITS.problemIssues).map(boundIssue);
  return out;
}

function wantsHtml(request: Request): boolean {
  return /text\/html/.test(request.headers.get('accept') ?? '');
}

/** The problem a failure is answered with: a thrown HttpProblem as is, a client gone 499, anything else 500. */
export function problemOf(error: unknown, request: Request): HttpProblem {
  return problemOfThrown(error, {
    // The client went away mid-body: its doing, not the emulator's; nobody is left to read the answer.
    clientGone: () => request.signal.aborted || isClientGone(error),
    clientGoneDetail: 'the request was cut off',
    internal: (thrown) => {
      console.error('[emulator] internal error', thrown);
      return new HttpProblem({ status: 500, detail: 'the emulator failed to answer this request' });
    },
  });
}

/** The answer of a problem: a page for a browser outside the API, else the problem as JSON. */
export function errorResponse(
  problem: HttpProblem,
  request: Request,
  pathname: string | undefined,
  about: { publicOrigin: () => string; now: () => Date; requestId: string },
): Response {
  if (pathname && !pathname.startsWith('/v1') && !pathname.startsWith('/search/v1') && wantsHtml(request)) {
    const { status, title = statusTitle(status), detail = '' } = problem.init;
    return errorPage(status, title, detail);
  }
  const instance = pathname === undefined ? {} : { instance: `${about.publicOrigin()}${pathname}` };
  return problemResponse(
    { ...bounded(problem.init), ...instance, time: about.now().toISOString(), requestId: about.requestId },
    problem.headers,
  );
}
