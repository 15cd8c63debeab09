// What the emulator's operations and consent pages share: the state, the
// clock and where the emulator is reached (Env); what an operation gets and
// returns (OperationContext, OperationResult); the emulator's problem types,
// and the 400 an operation refuses a request's issues with.
import type { operations as Spec } from '../shared/schema.js';
import type { ProblemIssue } from '../shared/types.js';
import { HttpProblem, invalidRequest } from '../http/http-problem.js';
import type { TokenClaims } from './jwt.js';
import type { EmulatorState } from './state.js';

export const PROBLEM_TYPES = {
  conflict: 'urn:connect-provider:problem:conflict',
  unknownProvider: 'urn:connect-provider:problem:unknown-provider',
} as const;

/**
 * The 400 refusing a request for `issues` (one or more), each naming its field: the detail is the one issue's, or
 * "N problems: a; b", after `lead` (the provider's name, say).
 */
export function refusal(issues: ProblemIssue[], lead = ''): HttpProblem {
  const details = issues.map((i) => i.detail);
  const detail = issues.length === 1 ? details[0] : `${issues.length} problems: ${details.join('; ')}`;
  return invalidRequest(`${lead}${detail}`, issues);
}

/** What operations and consent pages share: the state, the clock and where the emulator is reached. */
export interface Env {
  state: EmulatorState;
  /** The time the request arrived. */
  now: Date;
  /** The clock itself, for a time later in the request (once a body has arrived). */
  clock: () => Date;
  /** The origin browsers reach the emulator at: --public-url, or the listening address. */
  publicOrigin: string;
  verifyDelayMs: number;
  /** How long a request body may take to arrive whole (408 after). */
  bodyDeadlineMs: number;
  /** Marks the state changed, so it is saved. */
  changed(): void;
  /**
   * Takes room in the data file for a change that may add up to `bytes` to it (storedBytesBound), before making it:
   * a 429 problem when the file might grow past LIMITS.dataFileBytes.
   */
  room(bytes: number): void;
}

/** An operationId of openapi.yaml (the keys of the generated `operations`). */
export type OperationId = keyof Spec;
type Params<K extends OperationId> = Spec[K]['parameters'];
type Content<R> = R extends { content: infer C } ? C[keyof C] : never;
type SuccessStatus<K extends OperationId> = Extract<keyof Spec[K]['responses'], 200 | 201 | 204>;

/** What a handler of operation K answers: one of its documented success statuses, with that status's body. */
export type OperationResult<K extends OperationId> = {
  [S in SuccessStatus<K>]: Spec[K]['responses'][S] extends { content: object }
    ? { status: S; body: Content<Spec[K]['responses'][S]>; headers?: Record<string, string> }
    : { status: S; body?: undefined; headers?: Record<string, string> };
}[SuccessStatus<K>];

/** What a handler of operation K gets: the request already routed, authenticated and validated. */
export interface OperationContext<K extends OperationId> extends Env {
  /** The claims of the Bearer JWT the call sent; undefined for the API key or a public operation. */
  bearer: TokenClaims | undefined;
  path: NonNullable<Params<K>['path']>;
  query: NonNullable<Params<K>['query']>;
  body: Spec[K]['requestBody'] extends { content: { 'application/json': infer B } } ? B : undefined;
}

/**
 * Carries out operation K. Typed from the generated `operations`: a parameter read under a wrong name or an answer
 * of an undocumented status is a compile error.
 */
export type Handler<K extends OperationId> = (ctx: OperationContext<K>) => OperationResult<K>;
