// Request bodies read with limits: a size past which reading stops (413), a
// deadline (408), JSON's media type (415) and syntax (400), valid UTF-8 (400).
import { HttpProblem } from './http-problem.js';

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
  } catch {
    // Not the parser's message: V8's quotes the body, which may hold a credential.
    throw new HttpProblem({ status: 400, detail: 'the body is not valid JSON' });
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
