// Who is asking: the app's authorize() option, checked. A null is a 401 (no
// one is signed in); anything else that is no user is the app's mistake: a
// non-retryable 500 that says the backend is misconfigured, and one onError
// report of what authorize() returned (its type and key names, never a value).
import { HttpProblem } from '../http/http-problem.js';
import { MAX_FIELD_LENGTH } from './input.js';
import type { ConnectHandlerOptions, ConnectUser } from './options.js';
import { describeThrown, HANDLER_PROBLEM_TYPES, ServerFault } from './handler-problems.js';

const USAGE =
  'authorize() must return { groupRef, consumerRef } as non-empty strings (groupName and consumerName optional), each at most 512 characters, or null for a caller who is not signed in';
/** How many key names of a returned object the log names. */
const KEYS_TOLD = 10;

/** A type's name with its article: `a string`, `an object`. */
const aType = (type: string) => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;

/** What is wrong with one field of the returned object, or undefined when it is usable. */
function fieldFault(value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null) return required ? (value === null ? 'null' : 'missing') : undefined;
  if (typeof value !== 'string') return aType(Array.isArray(value) ? 'array' : typeof value);
  if (required && value === '') return 'empty';
  return value.length > MAX_FIELD_LENGTH ? `${value.length} characters long` : undefined;
}

/** Why a value authorize() returned is no user, for the log; undefined when it is one. Never quotes a value. */
function unusableUser(value: unknown): string | undefined {
  if (value === undefined) return 'returned undefined (is a `return` missing?)';
  if (typeof value !== 'object' || value === null) return `returned ${aType(typeof value)}`;
  if (Array.isArray(value)) return `returned an array of ${value.length}`;
  const user = value as Record<string, unknown>;
  const faults = (
    [
      ['groupRef', true],
      ['consumerRef', true],
      ['groupName', false],
      ['consumerName', false],
    ] as const
  ).flatMap(([name, required]) => {
    const fault = fieldFault(user[name], required);
    return fault ? [`${name} is ${fault}`] : [];
  });
  if (faults.length === 0) return undefined;
  const keys = Object.keys(user);
  const named = keys.slice(0, KEYS_TOLD).map((key) => (key.length > 40 ? `${key.slice(0, 39)}…` : key));
  const more = keys.length > KEYS_TOLD ? `, and ${keys.length - KEYS_TOLD} more` : '';
  return `returned an object with keys [${named.join(', ')}${more}] whose ${faults.join(', ')}`;
}

/** The 500 of an authorize() that threw: the app could not say who is asking (a failure that may pass). */
function authorizeThrew(error: unknown): ServerFault {
  return new ServerFault(
    new HttpProblem({ status: 500, detail: 'the app could not check who you are' }),
    'authorize',
    `authorize() threw ${describeThrown(error)}`,
    error,
  );
}

/** The 500 of an authorize() that returned no user and no null: the host's code is wrong, and a retry cannot help. */
function authorizeMisconfigured(reason: string): ServerFault {
  const logMessage = `authorize() ${reason}: ${USAGE}`;
  return new ServerFault(
    new HttpProblem({
      status: 500,
      type: HANDLER_PROBLEM_TYPES.misconfigured,
      title: 'Internal Server Error',
      detail:
        'the connect backend is misconfigured: its authorize() returned neither a user nor null (the server log says what it returned)',
      retryable: false,
    }),
    'authorize',
    logMessage,
    new TypeError(logMessage),
  );
}

/** The user authorize() names for the request; a 401 problem when it names none. */
export async function identify(
  options: Pick<ConnectHandlerOptions, 'authorize'>,
  request: Request,
): Promise<ConnectUser> {
  let user: unknown;
  try {
    user = await options.authorize(request);
  } catch (error) {
    throw authorizeThrew(error);
  }
  if (user === null) throw new HttpProblem({ status: 401, detail: 'sign in to connect an account' });
  const reason = unusableUser(user);
  if (reason !== undefined) throw authorizeMisconfigured(reason);
  return user as ConnectUser;
}
