// Problem Details (RFC 9457) answers and JSON bodies with limits: the HTTP pieces
// shared by the host handler (src/server) and the emulator (src/emulator), owned by neither.
import { PROBLEM_CONTENT_TYPE, statusTitle, VALIDATION_PROBLEM_TYPE } from '../shared/problem.js';
import type { Problem } from '../shared/types.js';
import { parseUrl } from '../shared/url.js';
import { answerResponse, headerRecord, type Answer, type HeaderMap } from './answer.js';

export interface ProblemInit extends Partial<Problem> {
  status: number;
}

/** An `application/problem+json` answer. `title` defaults to the status's reason phrase. */
export function problemAnswer(init: ProblemInit, headers?: HeaderMap): Answer {
  const body: Problem = { type: 'about:blank', title: statusTitle(init.status), ...init };
  const h = headerRecord(headers);
  h['content-type'] = PROBLEM_CONTENT_TYPE;
  h['cache-control'] = 'no-store';
  return { status: init.status, headers: h, body: JSON.stringify(body) };
}

/** A JSON answer. */
export function jsonAnswer(body: unknown, status = 200, headers?: HeaderMap): Answer {
  const h = headerRecord(headers);
  h['content-type'] = 'application/json';
  h['cache-control'] = 'no-store';
  return { status, headers: h, body: JSON.stringify(body) };
}

/** A `application/problem+json` Response. `title` defaults to the status's reason phrase. */
export function problemResponse(init: ProblemInit, headers: HeaderMap = {}): Response {
  return answerResponse(problemAnswer(init, headers));
}

/** A JSON Response. */
export function jsonResponse(body: unknown, status = 200, headers: HeaderMap = {}): Response {
  return answerResponse(jsonAnswer(body, status, headers));
}

/**
 * A problem's `instance`: the request's own absolute URL without its query (the
 * platform's description types `instance` as an absolute URI); undefined when
 * the URL does not parse, as with a Request-like object that is no Request.
 */
export function instanceOf(request: Request): string | undefined {
  const url = parseUrl(request.url);
  return url && `${url.origin}${url.pathname}`;
}

/** The request's path; undefined when its URL does not parse. */
export function pathnameOf(request: Request): string | undefined {
  return parseUrl(request.url)?.pathname;
}

/** Thrown inside request handling to answer with a problem. */
export class HttpProblem extends Error {
  constructor(
    readonly init: ProblemInit,
    readonly headers: HeaderMap = {},
  ) {
    super(init.detail ?? init.title ?? statusTitle(init.status));
  }
}

/** The client went away (before or while its request was served): 499, its doing, never a failure to report. */
export function clientClosed(detail: string): HttpProblem {
  return new HttpProblem({ status: 499, title: 'Client Closed Request', detail });
}

/** A 400 for input that breaks the rules (the handler's and the emulator's one type), with the issues that say where. */
export function invalidRequest(detail: string, issues?: Problem['issues']): HttpProblem {
  return new HttpProblem({
    status: 400,
    type: VALIDATION_PROBLEM_TYPE,
    title: 'Invalid request',
    detail,
    ...(issues ? { issues } : {}),
  });
}

/** A 405 for a method the path does not serve; `allow` lists the ones it does. The method is cut to 20 characters. */
export function methodNotAllowed(method: string, allow: string): HttpProblem {
  return new HttpProblem(
    { status: 405, detail: `${method.slice(0, 20)} is not allowed here; allowed: ${allow}` },
    { allow },
  );
}

/** Options of a body read. */
export interface BodyReadOptions {
  /** The whole body must have arrived within this many ms of the read's start, else 408. */
  deadlineMs?: number;
}

/**
 * Reads a JSON request body with a size limit: 413 when larger, 415 when the
 * content type is not JSON, 400 when it does not parse, 408 past the deadline.
 */
export async function readJsonBody(
  request: Request,
  limitBytes: number,
  options: BodyReadOptions = {},
): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  if (!/^application\/([a-z0-9.+-]+\+)?json$/.test(mediaType)) {
    throw new HttpProblem(
      {
        status: 415,
        detail: mediaType
          ? `expected a JSON body (application/json), got ${mediaType}`
          : 'expected a JSON body with Content-Type: application/json',
      },
      { accept: 'application/json' },
    );
  }
  const text = await readTextBody(request, limitBytes, options);
  if (text.trim() === '') throw new HttpProblem({ status: 400, detail: 'the JSON body is empty' });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpProblem({ status: 400, detail: `the body is not valid JSON: ${(error as Error).message}` });
  }
}

/**
 * Reads a request body as UTF-8 text, stopping as soon as it grows past
 * `limitBytes` (413), so an oversized body is never held in memory, or once
 * `deadlineMs` has passed before it ended (408), so a client sending byte by
 * byte holds nothing for long.
 */
export async function readTextBody(
  request: Request,
  limitBytes: number,
  options: BodyReadOptions = {},
): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) {
    throw new HttpProblem({ status: 413, detail: `the body is larger than ${limitBytes} bytes` });
  }
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late =
    options.deadlineMs === undefined
      ? undefined
      : new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new HttpProblem({ status: 408, detail: 'the request body did not arrive in time' })),
            options.deadlineMs,
          );
        });
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await (late ? Promise.race([reader.read(), late]) : reader.read());
      } catch (error) {
        if (error instanceof HttpProblem) await reader.cancel().catch(() => {});
        throw error;
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        await reader.cancel().catch(() => {});
        throw new HttpProblem({ status: 413, detail: `the body is larger than ${limitBytes} bytes` });
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(all);
  } catch {
    throw new HttpProblem({ status: 400, detail: 'the body is not valid UTF-8' });
  }
}
