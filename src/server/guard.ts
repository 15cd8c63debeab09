// The guards every request passes before it is routed: a plain Host, and
// cross-site refusal with CORS for explicitly allowed origins. Each guard
// throws its own problem; the handler's one error handler answers it.
import type { ResponseParts } from '../http/response-parts.js';
import { HttpProblem } from '../http/http-problem.js';
import { isPlainHost, isPlainHostList } from '../http/host.js';
import { parseUrl } from '../shared/url.js';
import { HANDLER_PROBLEM_TYPES } from './handler-problems.js';

export interface OriginPolicy {
  /** Origins other than the request's own that may call the handler (CORS is answered for them). */
  allowedOrigins: ReadonlySet<string>;
}

export type OriginVerdict = { ok: true; corsOrigin?: string } | { ok: false; reason: string };

/** Why the request's Host or X-Forwarded-Host cannot be trusted, or null when both are plain host[:port]. */
function untrustedHostReason(request: Request): string | null {
  const host = request.headers.get('host');
  if (host !== null && !isPlainHost(host)) return 'the Host header is not a plain host[:port]';
  const forwarded = request.headers.get('x-forwarded-host');
  if (forwarded !== null && !isPlainHostList(forwarded))
    return 'the X-Forwarded-Host header is not a plain host[:port]';
  return null;
}

/** Throws a 400 problem when the request's Host or X-Forwarded-Host is not a plain host[:port]. */
export function checkHost(request: Request): void {
  const reason = untrustedHostReason(request);
  if (reason === null) return;
  throw new HttpProblem({ status: 400, type: HANDLER_PROBLEM_TYPES.badHost, title: 'Bad Request', detail: reason });
}

function hostsOf(request: Request): Set<string> {
  const hosts = new Set<string>();
  const url = new URL(request.url);
  hosts.add(url.host.toLowerCase());
  const host = request.headers.get('host');
  if (host) hosts.add(host.toLowerCase());
  // Behind a proxy the public host arrives here. A browser cannot forge this
  // header cross-site without a CORS preflight, which this handler refuses.
  const forwarded = request.headers.get('x-forwarded-host');
  if (forwarded) for (const h of forwarded.split(',')) hosts.add(h.trim().toLowerCase());
  return hosts;
}

/**
 * The request's own scheme where it is known: X-Forwarded-Proto's first value (behind a proxy), else https when the
 * request URL is https. An http URL without it may be a proxy that ended TLS and said nothing: unknown.
 */
function schemeOf(request: Request): 'http:' | 'https:' | undefined {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0].trim().toLowerCase();
  if (forwarded === 'http' || forwarded === 'https') return `${forwarded}:`;
  return new URL(request.url).protocol === 'https:' ? 'https:' : undefined;
}

/**
 * Decides whether a request may be served. Browsers mark every request with
 * Sec-Fetch-Site and (for non-GET, and cross-origin GET) Origin; server-side
 * callers send neither and are let through, since they hold no user's cookies.
 */
export function originVerdict(request: Request, policy: OriginPolicy): OriginVerdict {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site')?.toLowerCase() ?? null;
  if (origin !== null && origin !== 'null') {
    if (policy.allowedOrigins.has(origin)) return { ok: true, corsOrigin: origin };
    const parsed = parseUrl(origin);
    if (!parsed) return { ok: false, reason: 'the Origin header is not a valid origin' };
    // The whole origin: its host, and its scheme where the request's own is known.
    const scheme = schemeOf(request);
    const hosts = hostsOf(request);
    if (!hosts.has(parsed.host.toLowerCase()) || (scheme !== undefined && parsed.protocol !== scheme)) {
      // Said so the developer can fix it: a server wrong about its own scheme, a page on another origin, or a dev
      // proxy that rewrote the Host header.
      if (hosts.has(parsed.host.toLowerCase()))
        return {
          ok: false,
          reason: `requests from ${origin} are not allowed: the request arrived as ${scheme}//${parsed.host}, another scheme than the page's; tell the server its public URL (SvelteKit's adapter-node: the ORIGIN variable; behind a proxy: X-Forwarded-Proto), or list the page's origin in the handler's allowedOrigins`,
        };
      const host = [...hosts][0] ?? 'none';
      return {
        ok: false,
        reason: `requests from ${origin} are not allowed (the request's host is ${host}): list the page's origin in the handler's allowedOrigins, or, behind a dev proxy, keep the page's Host header (changeOrigin: false)`,
      };
    }
    if (site === 'cross-site') return { ok: false, reason: 'cross-site requests are not allowed' };
    return { ok: true };
  }
  if (origin === 'null') return { ok: false, reason: 'requests from an opaque origin are not allowed' };
  if (site === 'cross-site' || site === 'same-site') return { ok: false, reason: `${site} requests are not allowed` };
  return { ok: true };
}

/**
 * The origin to answer with CORS headers (an allowed other origin), or undefined for the request's own origin or a
 * server-side caller; throws a 403 problem saying why a request that may not be served is refused.
 */
export function checkOrigin(request: Request, policy: OriginPolicy): string | undefined {
  const verdict = originVerdict(request, policy);
  if (verdict.ok) return verdict.corsOrigin;
  throw new HttpProblem({
    status: 403,
    type: HANDLER_PROBLEM_TYPES.forbiddenOrigin,
    title: 'Forbidden',
    detail: verdict.reason,
  });
}

/** Headers that let an allowed origin read the answer. */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    vary: 'Origin',
  };
}

/**
 * The answer to a CORS preflight from an allowed origin: every method the element sends, DELETE too when the handler
 * does not serve it, so that a DELETE without allowDisconnect reaches its 405 naming the option (a preflight refused
 * would fail in the browser as a network error, with nothing to say why).
 */
export function preflight(origin: string, request: Request): ResponseParts {
  const requested = request.headers.get('access-control-request-headers');
  return {
    status: 204,
    headers: {
      ...corsHeaders(origin),
      'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
      'access-control-allow-headers': requested ?? 'content-type',
      'access-control-max-age': '600',
    },
    body: null,
  };
}
