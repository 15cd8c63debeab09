// Internal: what a developer hears in the console of a flow's end that is theirs to fix (each said once per element).
import type { BackendError } from './backend.js';
import type { ConnectError } from './events.js';
import { refusesProvider } from './status.js';

/** The messages of a flow's error for the developer: a user not signed in, a provider name the backend refused. */
export function endMessages(provider: string, error: ConnectError | undefined): string[] {
  const { problem, code } = error ?? {};
  const messages: string[] = [];
  if (code === 'http_error' && problem?.status === 401)
    messages.push('the backend answered 401: is the user signed in?');
  if (refusesProvider(problem))
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
  if (error.notBackend) messages.push(error.message);
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
