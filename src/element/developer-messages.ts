// Internal: what a developer hears in the console of a failure that is theirs to fix: a flow's end (each said once
// per element), a read at rest (once per endpoint and route), the list's reads. Each names the fix.
import type { BrowserProvider } from '../shared/provider.js';
import { unsupportedScheme } from '../shared/sign-in.js';
import { absoluteEndpoint, type BackendError } from './backend.js';
import type { ConnectError } from './events.js';
import { refusesProvider } from './status.js';

/** A tag's voice in the console: each message said once, after the tag's name. */
export function warnOnce(tag: string): (message: string) => void {
  const said = new Set<string>();
  return (message) => {
    if (said.has(message)) return;
    said.add(message);
    console.warn(`<${tag}>: ${message}`);
  };
}

/**
 * What stops a flow before it begins: a required attribute missing, or a scheme the element cannot sign in with
 * (jwt), named, rather than a popup that cannot work. Undefined when nothing does.
 */
export function misconfigured(
  { endpoint, provider }: { endpoint: string; provider: string },
  mode: 'create' | 'update',
  info: BrowserProvider | undefined,
): string | undefined {
  const missing = !endpoint ? 'endpoint' : mode === 'create' && !provider ? 'provider' : '';
  if (missing) return `the ${missing} attribute is required`;
  const unsupported = unsupportedScheme(info);
  if (unsupported) return `provider "${provider}" signs in with ${unsupported}, which the element does not support`;
}

/** The handler's problem type for a provider its `providers` allow-list does not hold (docs/server.md). */
export const PROVIDER_NOT_ALLOWED = 'urn:connect-provider:problem:provider-not-allowed';

/**
 * Where a provider name the backend does not offer is fixed: its spelling, or the handler's `providers` option. It
 * never names what the option allows: the browser is not told the app's list.
 */
export const notOfferedFix = (provider: string): string =>
  `check the spelling of "${provider}" (names are the platform's, in lower case); to offer it, the handler's providers option (createConnectHandler({ providers })) must list it`;

/**
 * A route that answered a page (HTML, a bare 404), not a connect backend's JSON: the route and what it answered, and
 * the two likely fixes: the endpoint attribute (its value, and the URL this page resolves it to), or where the
 * server mounts the handler.
 */
export function notBackendMessage(error: BackendError, endpoint: string): string {
  const resolved = absoluteEndpoint(endpoint);
  const value = resolved === endpoint ? `"${endpoint}"` : `"${endpoint}", here ${resolved}`;
  return `${error.message}: check the endpoint attribute (${value}), or where the server mounts the connect handler`;
}

/** What a read at rest cannot do without its route: the caller's connections, or a provider's info. */
export type ReadRoute = { connections: true } | { provider: string };

/** A read at rest whose route is not a connect backend's: what to fix, and what the element cannot do meanwhile. */
export function readFailureMessage(error: BackendError, endpoint: string, route: ReadRoute): string {
  const cannot =
    'provider' in route
      ? `tell whether ${route.provider} signs in with a popup or a form, nor show its name, icon or form`
      : 'show the connection';
  return `${notBackendMessage(error, endpoint)}; without this route the element cannot ${cannot}`;
}

/** The messages of a flow's error for the developer: a user not signed in, a provider name the backend refused. */
export function endMessages(provider: string, error: ConnectError | undefined): string[] {
  const { problem, code } = error ?? {};
  const messages: string[] = [];
  if (code === 'http_error' && problem?.status === 401)
    messages.push('the backend answered 401: is the user signed in?');
  if (problem?.type === PROVIDER_NOT_ALLOWED)
    messages.push(`the backend refused provider "${provider}": ${problem.detail}; ${notOfferedFix(provider)}`);
  else if (refusesProvider(problem))
    messages.push(
      `the backend refused provider "${provider}": ${problem?.detail}; names are the platform's, in lower case`,
    );
  return messages;
}

/**
 * The messages of a request that failed for good: a backend that is not a connect backend, one that could not be
 * reached (`unreached`: no request ever answered) or refused this request alone (said only `online`: offline, a
 * network failure is no setup problem), one that says it is misconfigured.
 */
export function failureMessages(error: BackendError, endpoint: string, unreached: boolean, online: boolean): string[] {
  const messages: string[] = [];
  if (error.notBackend) messages.push(notBackendMessage(error, endpoint));
  if (error.code === 'network_error' && online)
    messages.push(
      unreached
        ? `${endpoint} could not be reached: on another origin, the handler must list this page's origin in allowedOrigins (CORS); else check the endpoint attribute`
        : // Reads answered but a POST or PATCH did not: on another origin, its preflight (OPTIONS) was refused.
          `${endpoint} answered reads but not this request: on another origin, check the preflight (OPTIONS): allowedOrigins must list this page's origin, and a dev server's own CORS must leave it to the handler (Vite: server.cors: false)`,
    );
  // The backend says it is misconfigured (authorize() returned no user): its detail is for the developer.
  else if (!error.retryable && error.problem?.status === 500) messages.push(String(error.problem.detail));
  return messages;
}
