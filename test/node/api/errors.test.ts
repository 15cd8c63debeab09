// The client's errors (src/api/errors.ts): ProblemError and PlatformRequestError, and the problem read from an
// error answer (RFC 9457 members kept by type, a text or HTML detail, Retry-After).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError, PlatformRequestError, ProblemError } from '../../../src/api/index.js';
import { MAX_ERROR_BODY_BYTES, normalizeProblem, problemFromResponse } from '../../../src/api/errors.js';

describe('ProblemError', () => {
  it('says status and title, and the detail when there is one', () => {
    assert.equal(new ProblemError({ status: 409, title: 'Taken' }).message, '409 Taken');
    assert.equal(
      new ProblemError({ status: 409, title: 'Taken', detail: 'name in use' }).message,
      '409 Taken: name in use',
    );
    assert.equal(new ProblemError({ status: 404 }).message, '404 Not Found');
  });

  it('defaults type to about:blank and serializes as the problem', () => {
    const error = new ProblemError({ status: 400, detail: 'bad', requestId: 'r1' }, 2000);
    assert.equal(error.type, 'about:blank');
    assert.equal(error.name, 'ProblemError');
    assert.equal(error.retryAfterMs, 2000);
    assert.deepEqual(error.toJSON(), {
      status: 400,
      detail: 'bad',
      requestId: 'r1',
      type: 'about:blank',
      title: 'Bad Request',
    });
    assert.equal(new ProblemError({ status: 400 }).retryAfterMs, undefined);
    assert.ok(!('retryAfterMs' in new ProblemError({ status: 400 })));
  });

  it('copies only the members the problem has', () => {
    const error = new ProblemError({ status: 500, title: 'Boom' });
    for (const key of ['detail', 'instance', 'issues', 'retryable', 'context']) assert.ok(!(key in error), key);
  });

  it('names its errors, for the logs that print them', () => {
    assert.equal(new PlatformRequestError('network', 'x').name, 'PlatformRequestError');
    assert.equal(new ProblemError({ status: 500 }).name, 'ProblemError');
    assert.equal(new PlatformError('x').name, 'PlatformError');
  });
});

describe('normalizeProblem', () => {
  it('keeps well-typed members and drops mistyped ones', () => {
    const problem = normalizeProblem(
      {
        type: 5,
        title: 'T',
        detail: ['x'],
        retryable: 'yes',
        causes: ['a', 3, 'b'],
        context: ['not', 'a', 'record'],
        issues: 'nope',
      },
      422,
    );
    assert.deepEqual(problem, { status: 422, title: 'T', causes: ['a', 'b'] });
  });

  it('keeps the typed members of each issue, an empty detail when it has none, and skips non-objects', () => {
    const problem = normalizeProblem(
      {
        issues: [
          { type: 't', title: 'ti', in: 'query', name: 'n', value: 0, detail: 'd' },
          { detail: 7, value: undefined },
          { detail: 'no value' },
          'junk',
          null,
          [1],
        ],
      },
      400,
    );
    assert.deepEqual(problem.issues, [
      { type: 't', title: 'ti', in: 'query', name: 'n', value: 0, detail: 'd' },
      { detail: '', value: undefined },
      { detail: 'no value' },
    ]);
  });

  it('keeps extension members, never letting one replace a standard member', () => {
    const problem = normalizeProblem({ vendor: { a: 1 }, status: 'x', retryable: false, context: { k: 1 } }, 503);
    assert.deepEqual(problem, { status: 503, retryable: false, context: { k: 1 }, vendor: { a: 1 } });
    assert.deepEqual(normalizeProblem('text', 500), { status: 500 });
    assert.deepEqual(normalizeProblem([1, 2], 500), { status: 500 });
    assert.deepEqual(normalizeProblem(null, 500), { status: 500 });
  });
});

describe('problemFromResponse', () => {
  const response = (body: string, status: number, headers: Record<string, string> = {}) =>
    new Response(body, { status, headers });

  it('reads a JSON body whatever its content type, and keeps the text of a broken one', async () => {
    const json = await problemFromResponse(
      response('{"detail":"d","title":"T"}', 400, { 'content-type': 'text/plain' }),
    );
    assert.equal(json.detail, 'd');
    assert.equal(json.title, 'T');
    const broken = await problemFromResponse(response('{"detail": ', 502, { 'content-type': 'application/json' }));
    assert.equal(broken.detail, '{"detail":');
    assert.equal(broken.title, 'Bad Gateway');
    const empty = await problemFromResponse(response('', 500, { 'content-type': 'application/json' }));
    assert.equal(empty.detail, undefined);
    assert.equal(empty.title, 'Internal Server Error');
  });

  it('turns a text or HTML body into a detail of at most 500 characters', async () => {
    const long = await problemFromResponse(response('x'.repeat(600), 500));
    assert.equal(long.detail, 'x'.repeat(500));
    const longJson = await problemFromResponse(
      response(`{${'y'.repeat(600)}`, 500, { 'content-type': 'application/json' }),
    );
    assert.equal(longJson.detail?.length, 500);
    const html = await problemFromResponse(response('<p>a</p>\n\n<b>b</b>', 503, { 'content-type': 'text/html' }));
    assert.equal(html.detail, 'a b');
    const blank = await problemFromResponse(response('  <br/> ', 503, { 'content-type': 'text/html' }));
    assert.equal(blank.detail, undefined);
  });

  it('takes Retry-After from the header before the body', async () => {
    const later = new Date(Date.now() + 60_000).toISOString();
    const both = await problemFromResponse(
      response(JSON.stringify({ retryAfter: later }), 429, { 'content-type': 'application/json', 'retry-after': '2' }),
    );
    assert.equal(both.retryAfterMs, 2000);
    const body = await problemFromResponse(
      response(JSON.stringify({ retryAfter: later }), 429, { 'content-type': 'application/json' }),
    );
    assert.ok(body.retryAfterMs! > 55_000 && body.retryAfterMs! <= 60_000, String(body.retryAfterMs));
  });

  it('keeps the status title in the problem, and no detail for a blank or unreadable body', async () => {
    const blank = await problemFromResponse(
      new Response('  \n ', { status: 503, headers: { 'content-type': 'application/problem+json' } }),
    );
    assert.equal(blank.problem.title, 'Service Unavailable');
    assert.equal(blank.detail, undefined);
    assert.equal(blank.message, '503 Service Unavailable');
    const broken = new ReadableStream({
      start(controller) {
        controller.error(new Error('connection dropped'));
      },
    });
    const unreadable = await problemFromResponse(new Response(broken, { status: 502 }));
    assert.equal(unreadable.detail, undefined);
    assert.equal(unreadable.message, '502 Bad Gateway');
  });

  it('keeps the words of an HTML page apart when it drops its tags', async () => {
    const page = await problemFromResponse(
      new Response('<p>Service</p><p>down</p>', { status: 500, headers: { 'content-type': 'text/html' } }),
    );
    assert.equal(page.detail, 'Service down');
  });

  it('reads a JSON problem by its content type even when the body is not an object', async () => {
    // JSON, but no problem object: the status speaks, the raw text does not become the detail.
    const array = await problemFromResponse(response('[1]', 500, { 'content-type': 'application/problem+json' }));
    assert.equal(array.detail, undefined);
    assert.equal(array.message, '500 Internal Server Error');
  });

  it('reads an object body after blanks as JSON, and a brace later in a page as text', async () => {
    const padded = await problemFromResponse(response(' \n {"detail":"d"}', 400, { 'content-type': 'text/plain' }));
    assert.equal(padded.detail, 'd');
    const page = await problemFromResponse(response('<p>bad {x}</p>', 400, { 'content-type': 'text/html' }));
    assert.equal(page.detail, 'bad {x}');
  });

  it('has no detail when the answer has no body at all', async () => {
    const none = await problemFromResponse(new Response(null, { status: 503 }));
    assert.equal(none.detail, undefined);
    assert.equal(none.message, '503 Service Unavailable');
  });

  /** A body sent in `size`-byte chunks: `text`, then `tail` forever when it is given (the stream never ends). */
  const chunked = (text: string, size: number, tail?: string) => {
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < bytes.length) {
          controller.enqueue(bytes.slice(at, at + size));
          at += size;
        } else if (tail !== undefined) controller.enqueue(new TextEncoder().encode(tail));
        else controller.close();
      },
      cancel() {
        cancelled = true;
      },
    });
    return { body, cancelled: () => cancelled };
  };

  it(`reads at most ${MAX_ERROR_BODY_BYTES} bytes of an error body and cancels the rest, even when it never ends`, async () => {
    // A problem of exactly the limit, in chunks that do not divide it, then bytes that are not JSON, forever.
    const head = '{"detail":"d","pad":"';
    const problem = `${head}${'p'.repeat(MAX_ERROR_BODY_BYTES - head.length - 2)}"}`;
    assert.equal(problem.length, MAX_ERROR_BODY_BYTES);
    const stream = chunked(`${problem}${'x'.repeat(5000)}`, 1000, 'garbage');
    const error = await problemFromResponse(
      new Response(stream.body, { status: 500, headers: { 'content-type': 'application/json' } }),
    );
    assert.equal(error.detail, 'd', 'the limit cuts the body exactly after the problem');
    assert.ok(stream.cancelled(), 'the rest of the body is cancelled');
  });

  it('reads a problem that comes in many chunks whole, with a character split between two chunks', async () => {
    const problem = JSON.stringify({ detail: `${'é'.repeat(2000)}!`, title: 'Café' });
    const stream = chunked(problem, 7);
    const error = await problemFromResponse(
      new Response(stream.body, { status: 400, headers: { 'content-type': 'application/json' } }),
    );
    assert.equal(error.detail, `${'é'.repeat(2000)}!`);
    assert.equal(error.title, 'Café');
    assert.equal(stream.cancelled(), false, 'a body under the limit is read to its end');
  });
});
