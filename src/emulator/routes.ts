// Every path the emulator serves, in one table: the API under /v1 and
// /search/v1 (each operation of openapi.yaml, see operations.ts), the consent
// pages and the providers' icons. The first route whose pattern matches the
// path answers it; a route answers 405 itself for a method it does not serve.
import { HttpProblem } from '../http/http-problem.js';
import { handleCallback, handleConsent } from './consent.js';
import type { Env } from './context.js';
import type { Dispatch } from './dispatch.js';
import { handleMedia } from './media.js';

/** What a route gets besides the request. */
export interface RouteTools {
  dispatch: Dispatch;
  /** The shared context of this request's operation or page. */
  env: () => Env;
}

export interface EmulatorRoute {
  path: RegExp;
  serve(request: Request, match: RegExpExecArray, tools: RouteTools): Promise<Response> | Response;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpProblem({ status: 400, detail: 'the path is not valid percent-encoded UTF-8' });
  }
}

export const EMULATOR_ROUTES: readonly EmulatorRoute[] = [
  {
    // Each operation of openapi.yaml on {base_url}, by its method and path (dispatch.ts, operations.ts): the
    // capture takes the rest of the path, whatever it holds.
    path: /^\/v1(\/.*)/s,
    serve: (request, [, subPath], { dispatch, env }) => dispatch(request, subPath, 'base', env),
  },
  {
    // Each operation on {search_url}.
    path: /^\/search\/v1(\/.*)/s,
    serve: (request, [, subPath], { dispatch, env }) => dispatch(request, subPath, 'search', env),
  },
  {
    // GET shows the consent page; POST (the page's form) carries out the decision.
    path: /^\/consent\/([^/]+)$/,
    serve: (request, [, id], { env }) => handleConsent(env(), request, decodeSegment(id)),
  },
  {
    // GET: where the popup lands once decided; the page posts the completion message to window.opener.
    path: /^\/oauth\/callback$/,
    serve: (request, _match, { env }) => handleCallback(env(), request),
  },
  {
    // GET, HEAD /media/{provider}[-dark].svg: the providers' icons.
    path: /^\/media\//,
    serve: (request, match) => handleMedia(request, match.input),
  },
];

/** The route of a path, with what its pattern captured; a 404 problem when none serves it. */
export function findEmulatorRoute(method: string, path: string): { route: EmulatorRoute; match: RegExpExecArray } {
  for (const route of EMULATOR_ROUTES) {
    const match = route.path.exec(path);
    if (match) return { route, match };
  }
  throw new HttpProblem({ status: 404, detail: `no such route: ${method} ${path}` });
}
