// createConnectHandler: the host backend's connect routes, between the
// browser's <connect-provider> and the platform. Each request passes the
// host and origin checks (guard.ts), is routed (routes.ts), identified
// (identify.ts) and served (operations.ts); whatever fails on the way becomes
// one RFC 9457 problem in route()'s one catch.
import { toResponse, type ResponseParts } from '../http/response-parts.js';
import { clientClosed, HttpProblem, instanceOf, problemParts } from '../http/http-problem.js';
import { checkOrigin, corsHeaders, hostProblem, preflight } from './guard.js';
import { identify } from './identify.js';
import type { HandlerContext } from './operations.js';
import { resolveOptions, type ConnectHandlerOptions } from './options.js';
import { createPlatform } from './platform.js';
import { describeThrown, HANDLER_PROBLEM_TYPES, ServerFault } from './handler-problems.js';
import { createReporter } from './report.js';
import { enabledRoutes, findRoute } from './routes.js';
import { createScrubber } from './scrub.js';

export type ConnectHandler = (request: Request) => Promise<Response>;

/** Creates the handler of the connect routes. Throws a TypeError for unusable options. */
export function createConnectHandler(options: ConnectHandlerOptions): ConnectHandler {
  const config = resolveOptions(options);
  for (const warning of config.warnings) console.warn(`[connect-provider] ${warning}`);
  const { allowedOrigins, allowDisconnect } = config;
  const context: HandlerContext = {
    platform: createPlatform(config, createScrubber(config.apiKey, config.baseUrl), options.fetch),
    providers: config.providers,
    messageOrigin: config.messageOrigin,
    platformIsLoopback: config.platformIsLoopback,
    bodyLimit: config.bodyLimit,
  };
  const routes = enabledRoutes(config);
  const preflightMethods = allowDisconnect ? ['GET', 'POST', 'PATCH', 'DELETE'] : undefined;
  const report = createReporter(config.apiKey, options.onError);

  /** The problem a failure is answered with; the server's own failures are reported to onError. */
  function problemOf(error: unknown, request: Request, aborted: () => boolean): HttpProblem {
    let problem: HttpProblem;
    if (error instanceof HttpProblem) {
      problem = error;
    } else if (error instanceof Error && error.name === 'AbortError' && aborted()) {
      problem = clientClosed('the request was aborted');
    } else {
      problem = new ServerFault(
        new HttpProblem({ status: 500, detail: 'the connect handler failed' }),
        'internal',
        `unexpected ${describeThrown(error)}`,
        error,
      );
    }
    if (problem instanceof ServerFault) report(problem, request, problem.init.status);
    return problem;
  }

  async function route(request: Request, aborted: () => boolean): Promise<ResponseParts> {
    let cors: Record<string, string> = {};
    try {
      const badHost = hostProblem(request);
      if (badHost)
        throw new HttpProblem({
          status: 400,
          type: HANDLER_PROBLEM_TYPES.badHost,
          title: 'Bad Request',
          detail: badHost,
        });
      const verdict = checkOrigin(request, { allowedOrigins });
      if (!verdict.ok) {
        throw new HttpProblem({
          status: 403,
          type: HANDLER_PROBLEM_TYPES.forbiddenOrigin,
          title: 'Forbidden',
          detail: verdict.reason,
        });
      }
      if (verdict.corsOrigin) {
        cors = corsHeaders(verdict.corsOrigin);
        if (request.method === 'OPTIONS') return preflight(verdict.corsOrigin, request, preflightMethods);
      }
      const { route, segment } = findRoute(routes, request.method, new URL(request.url).pathname);
      const user = await identify(options, request);
      const answer = await route.operation(context, { request, segment, user, aborted });
      Object.assign(answer.headers, cors);
      return answer;
    } catch (error) {
      const problem = problemOf(error, request, aborted);
      // Absolute, on the app's own origin: never the platform's address.
      const instance = instanceOf(request);
      return problemParts(
        { ...problem.init, ...(instance === undefined ? {} : { instance }), time: new Date().toISOString() },
        { ...problem.headers, ...cors },
      );
    }
  }

  /** Every answer, whatever its status: no browser reads it as anything but its content type. */
  async function answer(request: Request, aborted: () => boolean): Promise<ResponseParts> {
    const answered = await route(request, aborted);
    answered.headers['x-content-type-options'] = 'nosniff';
    return answered;
  }

  return async (request) => toResponse(await answer(request, () => request.signal.aborted));
}
