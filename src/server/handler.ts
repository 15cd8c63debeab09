// createConnectHandler: the host backend's connect routes, between the
// browser's <connect-provider> and the platform. Each request passes the
// host and origin checks (guard.ts), is routed (routes.ts), identified
// (identify.ts) and served (operations.ts); whatever fails on the way is
// thrown, and becomes one RFC 9457 problem in the one error handler.
import { toResponse, type ResponseParts } from '../http/response-parts.js';
import { instanceOf, problemOfThrown, problemParts } from '../http/http-problem.js';
import { checkHost, checkOrigin, corsHeaders, preflight } from './guard.js';
import { identify } from './identify.js';
import type { HandlerContext } from './operations.js';
import { resolveOptions, type ConnectHandlerOptions } from './options.js';
import { createPlatform } from './platform.js';
import { internalFault, ServerFault } from './handler-problems.js';
import { createReporter } from './report.js';
import { enabledRoutes, findRoute } from './routes.js';
import { createScrubber } from './scrub.js';

export type ConnectHandler = (request: Request) => Promise<Response>;

/** Creates the handler of the connect routes. Throws a TypeError for unusable options. */
export function createConnectHandler(options: ConnectHandlerOptions): ConnectHandler {
  const config = resolveOptions(options);
  for (const warning of config.warnings) console.warn(`[connect-provider] ${warning}`);
  const { allowedOrigins } = config;
  const context: HandlerContext = {
    platform: createPlatform(config, createScrubber(config.apiKey, config.baseUrl), options.fetch),
    providers: config.providers,
    messageOrigin: config.messageOrigin,
    platformIsLoopback: config.platformIsLoopback,
    bodyLimit: config.bodyLimit,
  };
  const routes = enabledRoutes(config);
  const report = createReporter(config.apiKey, options.onError);

  /**
   * The one error handler: what the route threw becomes its problem's answer (the server's own failures reported to
   * onError), with the CORS headers the request earned.
   */
  function answerError(
    error: unknown,
    request: Request,
    aborted: () => boolean,
    cors: Record<string, string>,
  ): ResponseParts {
    const problem = problemOfThrown(error, {
      clientGone: () => error instanceof Error && error.name === 'AbortError' && aborted(),
      clientGoneDetail: 'the request was aborted',
      internal: internalFault,
    });
    if (problem instanceof ServerFault) report(problem, request, problem.init.status);
    // Absolute, on the app's own origin: never the platform's address.
    const instance = instanceOf(request);
    return problemParts(
      { ...problem.init, ...(instance === undefined ? {} : { instance }), time: new Date().toISOString() },
      { ...problem.headers, ...cors },
    );
  }

  /** Guard, find the route, identify the caller, run the operation. */
  async function route(request: Request, aborted: () => boolean): Promise<ResponseParts> {
    let cors: Record<string, string> = {};
    try {
      checkHost(request);
      const corsOrigin = checkOrigin(request, { allowedOrigins });
      if (corsOrigin) {
        cors = corsHeaders(corsOrigin);
        if (request.method === 'OPTIONS') return preflight(corsOrigin, request);
      }
      const { route, segment } = findRoute(routes, request.method, new URL(request.url).pathname);
      const user = await identify(options, request);
      const tell = (fault: ServerFault) => report(fault, request, 200);
      const answer = await route.operation(context, { request, segment, user, aborted, tell });
      Object.assign(answer.headers, cors);
      return answer;
    } catch (error) {
      return answerError(error, request, aborted, cors);
    }
  }

  return async (request) => {
    const answer = await route(request, () => request.signal.aborted);
    // Every answer, whatever its status: no browser reads it as anything but its content type.
    answer.headers['x-content-type-options'] = 'nosniff';
    return toResponse(answer);
  };
}
