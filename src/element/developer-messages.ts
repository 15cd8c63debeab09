// Internal: what a developer hears in the console of a flow's end that is theirs to fix (each said once per element).
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
