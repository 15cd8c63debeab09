// Who is asking: the app's authorize() option, checked. Its failure is the
// app's (a 500 reported to onError), a null is a 401.
import { HttpProblem } from '../http/http-problem.js';
import { MAX_FIELD_LENGTH } from './input.js';
import type { ConnectHandlerOptions, ConnectUser } from './options.js';
import { describeThrown, ServerFault } from './handler-problems.js';

const valid = (value: unknown) => typeof value === 'string' && value !== '' && value.length <= MAX_FIELD_LENGTH;
const optional = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.length <= MAX_FIELD_LENGTH);

function authorizeFault(logMessage: string, error: unknown): ServerFault {
  return new ServerFault(
    new HttpProblem({ status: 500, detail: 'the app could not check who you are' }),
    'authorize',
    logMessage,
    error,
  );
}

/** The user authorize() names for the request; a 401 problem when it names none. */
export async function identify(
  options: Pick<ConnectHandlerOptions, 'authorize'>,
  request: Request,
): Promise<ConnectUser> {
  let user: ConnectUser | null;
  try {
    user = await options.authorize(request);
  } catch (error) {
    throw authorizeFault(`authorize() threw ${describeThrown(error)}`, error);
  }
  if (user === null || user === undefined)
    throw new HttpProblem({ status: 401, detail: 'sign in to connect an account' });
  if (
    typeof user !== 'object' ||
    !valid(user.groupRef) ||
    !valid(user.consumerRef) ||
    !optional(user.groupName) ||
    !optional(user.consumerName)
  ) {
    throw authorizeFault(
      'authorize() must return null or { groupRef, consumerRef } as non-empty strings (names optional), each at most 512 characters',
      undefined,
    );
  }
  return user;
}
