// CORS, so a browser SDK on another origin can call the emulator directly (as
// the platform's own SDK calls the real service). Auth is by header, never by
// cookie, so any origin is allowed by default; `corsOrigins` narrows that.
import { HttpProblem } from '../http/problem.js';

/** '*' (any origin) or the exact origins allowed. */
export type CorsPolicy = '*' | ReadonlySet<string>;

/** Headers a script may read from the emulator's answers. */
const EXPOSED = 'x-request-id, location, retry-after, www-authenticate, allow';
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PREFLIGHT_MAX_AGE_S = '600';

/** Checks and normalizes the allowed origins: each is scheme://host[:port], as a browser sends it. */
export function corsPolicy(origins: readonly string[] | '*' | undefined): CorsPolicy {
  if (origins === undefined || origins === '*') return '*';
  const out = new Set<string>();
  for (const origin of origins) {
    if (origin === '*') return '*';
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new TypeError(
        `connect-provider emulator: CORS origin ${JSON.stringify(origin)} is not an origin (scheme://host[:port])`,
      );
    }
    if (parsed.origin === 'null' || parsed.origin !== origin.replace(/\/$/, '')) {
      throw new TypeError(
        `connect-provider emulator: CORS origin ${JSON.stringify(origin)} is not an origin (scheme://host[:port])`,
      );
    }
    out.add(parsed.origin);
  }
  return out;
}

function allows(policy: CorsPolicy, origin: string | null): boolean {
  return policy === '*' || (origin !== null && policy.has(origin));
}

function allowOrigin(policy: CorsPolicy, origin: string | null, headers: Headers): void {
  if (policy === '*') {
    headers.set('access-control-allow-origin', '*');
    return;
  }
  headers.append('vary', 'Origin');
  if (origin !== null && policy.has(origin)) headers.set('access-control-allow-origin', origin);
}

/** The answer to a CORS preflight, or undefined when the request is not one. */
export function preflight(request: Request, policy: CorsPolicy): Response | undefined {
  const origin = request.headers.get('origin');
  const method = request.headers.get('access-control-request-method');
  if (request.method !== 'OPTIONS' || origin === null || method === null) return undefined;
  if (!allows(policy, origin))
    throw new HttpProblem({ status: 403, detail: `the origin ${origin} may not call this emulator` });
  if (!TOKEN.test(method))
    throw new HttpProblem({ status: 400, detail: 'Access-Control-Request-Method is not a method name' });
  const asked = (request.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  if (asked.some((h) => !TOKEN.test(h)))
    throw new HttpProblem({
      status: 400,
      detail: 'Access-Control-Request-Headers lists a name that is not a header name',
    });
  const headers = new Headers({
    'access-control-allow-methods': method,
    'access-control-max-age': PREFLIGHT_MAX_AGE_S,
    'cache-control': 'no-store',
    vary: 'Access-Control-Request-Method, Access-Control-Request-Headers',
  });
  if (asked.length > 0) headers.set('access-control-allow-headers', asked.join(', '));
  // Chromium's Private Network Access asks this of loopback servers.
  if (request.headers.get('access-control-request-private-network') === 'true')
    headers.set('access-control-allow-private-network', 'true');
  allowOrigin(policy, origin, headers);
  return new Response(null, { status: 204, headers });
}

/** Adds the CORS headers of an actual (non-preflight) answer. */
export function addCorsHeaders(request: Request, response: Response, policy: CorsPolicy): Response {
  const origin = request.headers.get('origin');
  allowOrigin(policy, origin, response.headers);
  if (response.headers.has('access-control-allow-origin'))
    response.headers.set('access-control-expose-headers', EXPOSED);
  return response;
}
