// RFC 9457 Problem Details: parsing answers into errors the caller can act on.
import type { Problem, ProblemIssue } from '../shared/types.js';
import { isRecord } from '../shared/json.js';
import { parseRetryAfter } from '../shared/retry.js';
import { statusTitle } from '../shared/problem-details.js';

/** Base class of every error the platform client throws. */
export class PlatformError extends Error {
  override name = 'PlatformError';
}

/**
 * The platform answered with an error status. Carries every RFC 9457 member
 * of the answer (and the platform's extensions) as properties; `problem` is
 * the whole parsed object. A non-problem body still yields a ProblemError:
 * its title comes from the status and its detail from the body's text.
 */
export class ProblemError extends PlatformError {
  override name = 'ProblemError';
  readonly problem: Problem;
  readonly type: string;
  readonly href?: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly subsystem?: string;
  readonly time?: string;
  readonly requestId?: string;
  readonly causes?: string[];
  readonly remedy?: string;
  readonly supportEmail?: string;
  readonly supportPhone?: string;
  readonly supportUrl?: string;
  readonly retryable?: boolean;
  readonly retryAfter?: string;
  readonly context?: Record<string, unknown>;
  readonly issues?: ProblemIssue[];
  /** Milliseconds to wait before retrying, from `Retry-After` or `retryAfter`, if the platform said. */
  readonly retryAfterMs?: number;

  constructor(problem: Problem & { status: number }, retryAfterMs?: number) {
    const title = problem.title ?? statusTitle(problem.status);
    super(problem.detail ? `${problem.status} ${title}: ${problem.detail}` : `${problem.status} ${title}`);
    for (const key of FIELDS) {
      if (key in problem) (this as Record<string, unknown>)[key] = (problem as Record<string, unknown>)[key];
    }
    this.problem = problem;
    this.type = problem.type ?? 'about:blank';
    this.title = title;
    this.status = problem.status;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }

  toJSON(): Problem {
    return { ...this.problem, type: this.type, title: this.title, status: this.status };
  }
}

/** The request never got an HTTP answer (network failure, time-out) or got an unreadable one. */
export class PlatformRequestError extends PlatformError {
  override name = 'PlatformRequestError';
  constructor(
    /** `network`: no answer; `timeout`: no answer within timeoutMs; `invalid_response`: a 2xx answer that does not parse. */
    readonly code: 'network' | 'timeout' | 'invalid_response',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const STRING_FIELDS = [
  'type',
  'href',
  'title',
  'detail',
  'instance',
  'subsystem',
  'time',
  'requestId',
  'remedy',
  'supportEmail',
  'supportPhone',
  'supportUrl',
  'retryAfter',
] as const;
const FIELDS = [...STRING_FIELDS, 'status', 'causes', 'retryable', 'context', 'issues'] as const;

/**
 * Keeps the members of a parsed body that have the types RFC 9457 and the
 * platform give them; drops the rest, so a malformed problem cannot put a
 * number where a caller expects a string. `status` is the HTTP status.
 */
export function normalizeProblem(body: unknown, status: number): Problem & { status: number } {
  const problem: Problem & { status: number } = { status };
  if (!isRecord(body)) return problem;
  for (const key of STRING_FIELDS) {
    if (typeof body[key] === 'string') (problem as Record<string, unknown>)[key] = body[key];
  }
  if (typeof body.retryable === 'boolean') problem.retryable = body.retryable;
  if (Array.isArray(body.causes)) problem.causes = body.causes.filter((c): c is string => typeof c === 'string');
  if (isRecord(body.context)) problem.context = body.context;
  if (Array.isArray(body.issues)) {
    problem.issues = body.issues.filter(isRecord).map((issue) => {
      const out: ProblemIssue = { detail: typeof issue.detail === 'string' ? issue.detail : '' };
      if (typeof issue.type === 'string') out.type = issue.type;
      if (typeof issue.title === 'string') out.title = issue.title;
      if (typeof issue.in === 'string') out.in = issue.in;
      if (typeof issue.name === 'string') out.name = issue.name;
      if ('value' in issue) out.value = issue.value;
      return out;
    });
  }
  // Extension members other than the platform's are kept too (RFC 9457 section 3.2).
  for (const [key, value] of Object.entries(body)) {
    if (!(FIELDS as readonly string[]).includes(key) && !(key in problem)) {
      (problem as Record<string, unknown>)[key] = value;
    }
  }
  return problem;
}

const MAX_TEXT_DETAIL = 500;
/** How much of an error answer's body is read: a problem is small; the rest is not read at all. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The body's first `max` bytes as text; the rest is never read (the stream is cancelled). Throws if unreadable. */
async function boundedText(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = value.subarray(0, max - size); // the whole chunk while it fits
    size += chunk.byteLength;
    text += decoder.decode(chunk, { stream: true });
    if (size >= max) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return text + decoder.decode();
}

/** Reads an error answer into a ProblemError, whatever its body (of which at most MAX_ERROR_BODY_BYTES are read). */
export async function problemFromResponse(response: Response): Promise<ProblemError> {
  const contentType = response.headers.get('content-type') ?? '';
  let text = '';
  try {
    text = await boundedText(response, MAX_ERROR_BODY_BYTES);
  } catch {
    // body unreadable (connection dropped mid-body): the status still says enough
  }
  let problem: Problem & { status: number };
  if (/json/i.test(contentType) || /^\s*\{/.test(text)) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON after all: the text becomes the detail below
    }
    problem = normalizeProblem(body, response.status);
    if (body === undefined && text.trim()) problem.detail = text.trim().slice(0, MAX_TEXT_DETAIL);
  } else {
    problem = normalizeProblem(undefined, response.status);
    // A tag ends at the first > or at the next <: linear, whatever the text (a run of < never rescans).
    const plain = text
      .replace(/<[^<>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (plain) problem.detail = plain.slice(0, MAX_TEXT_DETAIL);
  }
  // The HTTP status is the truth; a body claiming another one is kept in `problem` only.
  problem.status = response.status;
  if (!problem.title) problem.title = statusTitle(response.status);
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after')) ?? parseRetryAfter(problem.retryAfter);
  return new ProblemError(problem, retryAfterMs);
}
