// CORS, so a browser SDK on another origin can call the emulator directly (as
// the platform's own SDK calls the real service). Auth is by header, never by
// cookie; but the default API key is public knowledge, so with it the emulator
// answers only loopback origins (a page on the internet must not drive the
// emulator on a developer's machine) and never grants Chromium's private-network
// access. `corsOrigins` (--cors-origin; '*' for any) or a key of one's own opens more.
import { HttpProblem } from '../http/http-problem.js';
import { isLoopbackHost, parseUrl } from '../shared/url.js';

/** The origins CORS answers, and whether a page outside the private network may reach the emulator. */
export interface CorsPolicy {
  /** '*' (any origin), 'loopback' (http(s) on localhost, *.localhost, 127.x, [::1]) or the exact origins. */
  origins: '*' | 'loopback' | ReadonlySet<string>;
  /** Whether a preflight asking for private-network access (Chromium) is granted it. */
  privateNetwork: boolean;
}

/** The text the start banner shows for the origins CORS answers. */
export const LOOPBACK_DESCRIPTION =
  'loopback only (http(s)://localhost, *.localhost, 127.x.x.x, [::1], any port); --cors-origin opens more';

/** Whether an Origin header names an http(s) origin on a loopback host. */
export function isLoopbackOrigin(origin: string): boolean {
  const parsed = parseUrl(origin);
  if (!parsed) return false;
  return (
    (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
    parsed.origin === origin.toLowerCase().replace(/\/$/, '') &&
    isLoopbackHost(parsed.hostname)
  );
}
/** Headers a script may read from the emulator's answers. */
const EXPOSED = 'x-request-id, location, retry-after, www-authenticate, allow';
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PREFLIGHT_MAX_AGE_S = '600';

/**
 * The policy: the origins given (checked and normalized: each is scheme://host[:port], as a browser sends it;
 * '*' is any), else any origin with an API key of one's own, else (the default key) loopback origins only.
 */
export function corsPolicy(origins: readonly string[] | '*' | undefined, defaultKey: boolean): CorsPolicy {
  if (origins === undefined) return defaultKey ? { origins: 'loopback', privateNetwork: false } : ANY;
  const out = new Set<string>();
  for (const origin of [origins].flat()) {
    if (origin === '*') return ANY;
    const parsed = parseUrl(origin);
    if (!parsed) {
      throw new TypeError(
        `connect-provider emulator: CORS origin ${JSON.stringify(origin)} is not an origin (scheme://host[:port])`,
      );
    }
    // An opaque origin (file:, data:, ...) serializes as 'null', which is never the text of a URL: refused here too.
    if (parsed.origin !== origin.replace(/\/$/, '')) {
      throw new TypeError(
        `connect-provider emulator: CORS origin ${JSON.stringify(origin)} is not an origin (scheme://host[:port])`,
      );
    }
    out.add(parsed.origin);
  }
  return { origins: out, privateNetwork: true };
}

const ANY: CorsPolicy = { origins: '*', privateNetwork: true };

/** What the start banner says of the policy. */
export function describeCors(policy: CorsPolicy): string {
  if (policy.origins === '*') return '*';
  if (policy.origins === 'loopback') return LOOPBACK_DESCRIPTION;
  return [...policy.origins].join(', ');
}

function isAllowedOrigin(policy: CorsPolicy, origin: string | null): boolean {
  if (policy.origins === '*') return true;
  if (origin === null) return false;
  return policy.origins === 'loopback' ? isLoopbackOrigin(origin) : policy.origins.has(origin);
}

function allowOrigin(policy: CorsPolicy, origin: string | null, headers: Headers): void {
  if (policy.origins === '*') {
    headers.set('access-control-allow-origin', '*');
    return;
  }
  headers.append('vary', 'Origin');
  if (isAllowedOrigin(policy, origin)) headers.set('access-control-allow-origin', origin!);
}

/** The answer to a CORS preflight, or undefined when the request is not one. */
export function emulatorPreflight(request: Request, policy: CorsPolicy): Response | undefined {
  const origin = request.headers.get('origin');
  const method = request.headers.get('access-control-request-method');
  if (request.method !== 'OPTIONS' || origin === null || method === null) return undefined;
  if (!isAllowedOrigin(policy, origin))
    throw new HttpProblem({ status: 403, detail: `the origin ${origin} may not call this emulator` });
  if (!TOKEN.test(method))
    throw new HttpProblem({ status: 400, detail: 'Access-Control-Request-Method is not a method name' });
  const requestedHeaders = (request.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  if (requestedHeaders.some((h) => !TOKEN.test(h)))
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
  if (requestedHeaders.length > 0) headers.set('access-control-allow-headers', requestedHeaders.join(', '));
  // Chromium's Private Network Access asks this of loopback servers, for a page outside the private network:
  // granted only where the emulator was opened on purpose (never with the default key's loopback policy).
  if (policy.privateNetwork && request.headers.get('access-control-request-private-network') === 'true')
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
