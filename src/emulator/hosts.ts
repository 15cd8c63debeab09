// Which Host names the emulator answers. A page on the internet reaches a server on the developer's machine by DNS
// rebinding: its own name, resolved again to 127.0.0.1, makes its requests same-origin, so CORS never applies, and
// only the Host header still carries the page's name. With the default API key (public knowledge) the emulator
// therefore answers loopback names only, and the names given on purpose (allowedHosts, publicUrl's host).
import { HttpProblem } from '../http/http-problem.js';
import { isLoopbackHost, parseUrl } from '../shared/url.js';

/** The Host names answered: any, or loopback names and `names`. */
export interface HostPolicy {
  any: boolean;
  names: ReadonlySet<string>;
}

/** A host name as a URL's `hostname` holds it: lower case, IPv6 in brackets, no trailing dot. */
function normalized(name: string): string {
  const bare = name.trim();
  const parsed = parseUrl(`http://${bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare}/`);
  const hostname = parsed?.hostname.replace(/\.$/, '');
  if (!hostname || parsed?.host !== parsed?.hostname || !/^[\w.\-[\]:]+$/.test(bare)) {
    throw new TypeError(
      `connect-provider emulator: allowed host ${JSON.stringify(name)} is not a host name or address (no scheme, port or path)`,
    );
  }
  return hostname;
}

/**
 * The policy: `allowed` ('*' or a list holding '*': any), else any Host with a key of one's own, else (the default
 * key) loopback names, the names listed and publicUrl's host.
 */
export function hostPolicy(
  allowed: readonly string[] | '*' | undefined,
  defaultKey: boolean,
  publicUrl: string | undefined,
): HostPolicy {
  const list = [allowed ?? []].flat();
  if (list.includes('*') || (allowed === undefined && !defaultKey)) return { any: true, names: new Set() };
  const names = new Set(list.map(normalized));
  if (publicUrl !== undefined) names.add(normalized(new URL(publicUrl).hostname));
  return { any: false, names };
}

/**
 * Refuses, with a 403 problem, a request whose Host (its URL's host) the policy does not answer. The Host is at most
 * 255 characters of a plain host[:port] by then (http/host.ts), so the detail can name it whole.
 */
export function checkHostPolicy(request: Request, policy: HostPolicy): void {
  if (policy.any) return;
  const hostname = parseUrl(request.url)?.hostname.replace(/\.$/, '');
  if (hostname === undefined) return; // no URL: refused as such by the route
  if (isLoopbackHost(hostname) || policy.names.has(hostname)) return;
  throw new HttpProblem({
    status: 403,
    detail:
      `the Host ${hostname} is not a loopback name: with the default API key the emulator answers ` +
      'only localhost, *.localhost, 127.x.x.x and [::1], so that no web page reaches it by DNS rebinding; to serve ' +
      'it under another name on purpose, pass --allowed-host NAME (allowedHosts in code) or --public-url',
  });
}
