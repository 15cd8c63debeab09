// JSON bodies and problem answers (src/http/body-reader.ts, src/http/http-problem.ts): media types, limits and encodings of a body, what every
// answer carries, and a Request-like object that is no Request (the read's deadline: body-deadline.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectHandler, type ConnectHandler } from '../../../src/server/index.js';
import { readTextBody } from '../../../src/http/body-reader.js';
import { HttpProblem } from '../../../src/http/http-problem.js';
import { APP } from '../helpers/handler-calls.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

describe('JSON bodies and the answers of the handler (src/http/body-reader.ts, src/http/http-problem.ts)', () => {
  let platform: TestServer;
  let handler: ConnectHandler;

  before(async () => {
    platform = await startTestServer(() => ({
      headers: { 'content-type': 'text/plain' },
      body: 'https://consent.example/s',
    }));
    handler = createConnectHandler({
      apiKey: 'http-test-key',
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
      retry: false,
      bodyLimit: 64,
    });
  });
  after(() => platform.close());

  const post = (body: BodyInit | undefined, headers: Record<string, string> = {}) =>
    handler(new Request(`${APP}/api/oauth-connect?from=test`, { method: 'POST', headers, body }));

  async function problemOf(response: Response, status: number) {
    assert.equal(response.status, status);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = await response.json();
    assert.equal(body.status, status);
    assert.equal(body.instance, `${APP}/api/oauth-connect`, 'the instance is the request URL without its query');
    return body;
  }

  it('takes application/json and any +json type, in any case and with parameters', { timeout: 10_000 }, async () => {
    for (const type of [
      'application/json',
      'Application/JSON; charset=utf-8',
      ' application/vnd.api+json ',
      'application/merge-patch+json;x=1',
      'application/json ; charset=utf-8',
    ]) {
      const response = await post('{"provider":"slack"}', { 'content-type': type });
      assert.equal(response.status, 200, type);
      assert.equal(response.headers.get('content-type'), 'application/json');
      assert.equal(response.headers.get('cache-control'), 'no-store');
    }
  });

  it(
    'answers 415 with Accept for any other type, naming it, or the header to send when there is none',
    { timeout: 10_000 },
    async () => {
      for (const type of [
        'text/plain',
        'application/jsonx',
        'text/json',
        'application/json-seq',
        'xapplication/json',
        'application/+json',
      ]) {
        const response = await post('{"provider":"slack"}', { 'content-type': type });
        assert.equal(response.headers.get('accept'), 'application/json', type);
        const body = await problemOf(response, 415);
        assert.equal(body.detail, `expected a JSON body (application/json), got ${type}`);
        assert.equal(body.type, 'about:blank');
        assert.equal(body.title, 'Unsupported Media Type');
      }
      const untyped = await problemOf(await post(new TextEncoder().encode('{"provider":"slack"}')), 415);
      assert.equal(untyped.detail, 'expected a JSON body with Content-Type: application/json');
    },
  );

  it(
    'answers 400 for an empty body, JSON that does not parse and bytes that are not UTF-8',
    { timeout: 10_000 },
    async () => {
      const json = { 'content-type': 'application/json' };
      const before = platform.requests.length;
      assert.equal((await problemOf(await post(undefined, json), 400)).detail, 'the JSON body is empty');
      assert.equal((await problemOf(await post(' \n\t ', json), 400)).detail, 'the JSON body is empty');
      assert.equal((await problemOf(await post('{"provider":', json), 400)).detail, 'the body is not valid JSON');
      // The parser's own message quotes the body: a credential in it is never echoed.
      const echoed = await problemOf(await post('{"apiKey":sk-SECRET-9f2}', json), 400);
      assert.ok(!JSON.stringify(echoed).includes('SECRET-9f2'), JSON.stringify(echoed));
      const latin1 = new Uint8Array([
        ...new TextEncoder().encode('{"provider":"sl'),
        0xe9,
        ...new TextEncoder().encode('"}'),
      ]);
      assert.equal((await problemOf(await post(latin1, json), 400)).detail, 'the body is not valid UTF-8');
      assert.equal(platform.requests.length, before, 'nothing unreadable reaches the platform');
    },
  );

  it('reads up to bodyLimit bytes, streamed or declared, and answers 413 past it', { timeout: 10_000 }, async () => {
    const json = { 'content-type': 'application/json' };
    const body = (bytes: number) => `{"provider":"slack"}${' '.repeat(bytes - 20)}`;
    assert.equal((await post(body(64), json)).status, 200);
    assert.equal((await problemOf(await post(body(65), json), 413)).detail, 'the body is larger than 64 bytes');
    // Streamed in small chunks, with no length declared.
    const chunks = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < text.length; i += 10) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 10)));
          controller.close();
        },
      });
    const streamed = (text: string, declaredLength?: number) =>
      handler(
        new Request(`${APP}/api/oauth-connect`, {
          method: 'POST',
          headers: declaredLength === undefined ? json : { ...json, 'content-length': String(declaredLength) },
          body: chunks(text),
          // @ts-expect-error Node's fetch needs duplex for a streamed body; not in the DOM types.
          duplex: 'half',
        }),
      );
    assert.equal((await streamed(body(64))).status, 200);
    assert.equal((await streamed(body(65))).status, 413);
    // Declared exactly at the limit, it is read; declared one byte past it, refused with the limit named.
    assert.equal((await streamed(body(64), 64)).status, 200);
    assert.equal((await problemOf(await streamed(body(65), 65), 413)).detail, 'the body is larger than 64 bytes');
    // A declared length past the limit is refused before a byte is read: the body here never comes.
    const declared = await handler(
      new Request(`${APP}/api/oauth-connect`, {
        method: 'POST',
        headers: { ...json, 'content-length': '65' },
        body: new ReadableStream({}),
        // @ts-expect-error as above
        duplex: 'half',
      }),
    );
    assert.equal(declared.status, 413);
  });

  it(
    'titles a problem by its status and types it about:blank when it has no type of its own',
    { timeout: 10_000 },
    async () => {
      const missing = await handler(
        new Request(`${APP}/api/nothing`, { headers: { 'sec-fetch-site': 'same-origin' } }),
      );
      const body = await missing.json();
      assert.equal(missing.headers.get('cache-control'), 'no-store');
      assert.deepEqual(
        { type: body.type, title: body.title, status: body.status, detail: body.detail, instance: body.instance },
        {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: 'no such connect route',
          instance: `${APP}/api/nothing`,
        },
      );
      assert.ok(!Number.isNaN(Date.parse(body.time)));
    },
  );
});

describe('a Request-like object that is no Request (src/http/http-problem.ts)', () => {
  it('gets a 500 problem from the handler, reported to onError, not a rejected promise', async () => {
    const errors: string[] = [];
    const handler = createConnectHandler({
      apiKey: 'wire-test-key',
      baseUrl: 'http://127.0.0.1:9/v1',
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
      onError: (info) => errors.push(info.message),
    });
    const likeRequest = {
      url: '/api/connect/connections',
      method: 'GET',
      headers: new Headers(),
      signal: new AbortController().signal,
    } as unknown as Request;
    const response = await handler(likeRequest);
    assert.equal(response.status, 500);
    const body = await response.json();
    assert.equal(body.detail, 'the connect handler failed');
    assert.equal(body.instance, undefined, 'no instance without an absolute URL');
    assert.deepEqual(errors, ['GET  answered 500: unexpected TypeError: Invalid URL']);
  });
});

describe('the body read and the problem it throws (src/http/body-reader.ts)', () => {
  /** A POST whose body sends `first` at once and, unless `rest` is undefined, `rest` after `delayMs` to end it. */
  function slowPost(first: string, rest?: string, delayMs = 30) {
    const seen = { cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(first));
        if (rest === undefined) return;
        setTimeout(() => {
          controller.enqueue(new TextEncoder().encode(rest));
          controller.close();
        }, delayMs);
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    // @ts-expect-error Node's fetch needs duplex for a streamed body; not in the DOM types.
    const request = new Request('http://app.example/x', { method: 'POST', body, duplex: 'half' });
    return { request, seen };
  }

  it(
    'answers 408 once deadlineMs has passed before the body ended, and lets the body go',
    { timeout: 5_000 },
    async () => {
      const { request, seen } = slowPost('{"a":');
      await assert.rejects(readTextBody(request, 1000, { deadlineMs: 50 }), (error: unknown) => {
        assert.ok(error instanceof HttpProblem);
        assert.deepEqual(error.init, { status: 408, detail: 'the request body did not arrive in time' });
        return true;
      });
      assert.equal(seen.cancelled, true);
    },
  );

  it('reads a body that takes its time whole when no deadline is given', { timeout: 5_000 }, async () => {
    const { request } = slowPost('{"a":', '1}');
    assert.equal(await readTextBody(request, 1000), '{"a":1}');
  });

  it("has its detail as an HttpProblem's message, else its title, else the status's reason phrase", () => {
    assert.equal(
      new HttpProblem({ status: 400, title: 'Bad input', detail: 'the field x is missing' }).message,
      'the field x is missing',
    );
    assert.equal(new HttpProblem({ status: 400, title: 'Bad input' }).message, 'Bad input');
    assert.equal(new HttpProblem({ status: 404 }).message, 'Not Found');
  });
});
