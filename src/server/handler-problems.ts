// The handler's own problem types, and the problems that are the server's
// fault (ServerFault): the browser gets the problem, onError the rest.
import { HttpProblem } from '../http/http-problem.js';
import type { ConnectHandlerErrorInfo } from './options.js';

export const HANDLER_PROBLEM_TYPES = {
  upstream: 'urn:connect-provider:problem:upstream',
  upstreamTimeout: 'urn:connect-provider:problem:upstream-timeout',
  /** The platform answered a URL the browser must not be sent to (not https, or http off loopback). */
  unusableUrl: 'urn:connect-provider:problem:unusable-url',
  /**
   * The handler is set up wrong: the platform does not know the configured project or baseUrl does not point at its
   * API (502), or the app's authorize() returned neither a user nor null (500). Never retryable.
   */
  misconfigured: 'urn:connect-provider:problem:misconfigured',
  forbiddenOrigin: 'urn:connect-provider:problem:forbidden-origin',
  badHost: 'urn:connect-provider:problem:bad-host',
  providerNotAllowed: 'urn:connect-provider:problem:provider-not-allowed',
  /** A DELETE of a connection to a handler without allowDisconnect (a 405). */
  disconnectOff: 'urn:connect-provider:problem:disconnect-off',
} as const;

/**
 * A failure that is the server's: the browser gets `problem`, onError the rest, with the API key and `secrets` (the
 * values of a credential the request carried) hidden in the log line and in what onError gets of `error`.
 */
export class ServerFault extends HttpProblem {
  constructor(
    problem: HttpProblem,
    readonly kind: ConnectHandlerErrorInfo['kind'],
    readonly logMessage: string,
    readonly error: unknown,
    readonly secrets: readonly string[] = [],
  ) {
    super(problem.init, problem.headers);
  }
}

/** The first line of a text, at most `max` characters, for a one-line log message. */
export function firstLine(text: string, max = 240): string {
  const line = text.split('\n')[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What was thrown, for the log: `Name: first line of the message`, or its type. */
export function describeThrown(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${firstLine(error.message)}` : typeof error;
}

/** A failure of the handler's own code: a 500 for the browser, what was thrown for onError. */
export function internalFault(error: unknown): ServerFault {
  return new ServerFault(
    new HttpProblem({ status: 500, detail: 'the connect handler failed' }),
    'internal',
    `unexpected ${describeThrown(error)}`,
    error,
  );
}

export function notFound(detail: string): HttpProblem {
  return new HttpProblem({ status: 404, detail });
}

/** A 502 that tells the app's developer the handler's options point at the wrong place. */
export function misconfiguredProblem(): HttpProblem {
  return new HttpProblem({
    status: 502,
    type: HANDLER_PROBLEM_TYPES.misconfigured,
    title: 'Bad Gateway',
    detail: 'the platform does not know this project: check baseUrl and project in the connect handler options',
    retryable: false,
  });
}

export function unusableUrlProblem(): HttpProblem {
  return new HttpProblem({
    status: 502,
    type: HANDLER_PROBLEM_TYPES.unusableUrl,
    title: 'Bad Gateway',
    detail:
      'the platform answered an unusable URL (only https, or http on a loopback platform, is sent to the browser)',
    retryable: false,
  });
}
