// What the server is told of a failure (src/server/report.ts, src/server/redact.ts), through onError or console.error,
// route by route and about authorize(), and what the browser is told alongside; onError's own failures are swallowed.
// onError's `error` is a plain value (no instanceof Error), without the key anywhere in it.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
} from '../../../src/server/index.js';
import { HttpProblem } from '../../../src/http/http-problem.js';
import { ServerFault } from '../../../src/server/handler-problems.js';
import { createReporter } from '../../../src/server/report.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { APP, call, problemReply, urlReply } from '../helpers/handler-calls.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';
import { ADA, DOUBLE_KEY, handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

const API_KEY = 'onerror-key+Zp81/Qx7Lm';

/** A platform that fails every request with a 500 problem. */
const failing: typeof fetch = async () =>
  new Response(JSON.stringify({ status: 500, title: 'Down', detail: 'the platform is down' }), {
    status: 500,
    headers: { 'content-type': 'application/problem+json' },
  });

function make(options: Partial<ConnectHandlerOptions>): ConnectHandler {
  return createConnectHandler({
    apiKey: API_KEY,
    baseUrl: 'https://platform.example/v1',
    project: 'demo',
    authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
    retry: false,
    fetch: failing,
    ...options,
  });
}

const get = (handler: ConnectHandler, path: string) =>
  handler(new Request(`${APP}${path}`, { headers: { 'sec-fetch-site': 'same-origin' } }));

/** Status, content type and body of an answer, without the per-request `time`. */
async function shape(response: Response) {
  const body = await response.json();
  delete body.time;
  return { status: response.status, type: response.headers.get('content-type'), body };
}

const REPORT_KEY = 'Report-Key-4Tz9Qw';
/** A failing platform: its problem's detail has a second line, which the log must not carry. */
const failure = (status: number) => problemReply(status, { detail: 'broken\nat depth' });

describe('onError', () => {
  it('may be async: a rejection it returns is swallowed, never unhandled, and the answer is the same', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const calls: ConnectHandlerErrorInfo[] = [];
      const rejecting = make({
        onError: async (info) => {
          calls.push(info);
          throw new Error('the log sink is down');
        },
      });
      const rejectingLater = make({
        onError: (info) => {
          calls.push(info);
          return new Promise<void>((_, reject) => setTimeout(() => reject(new Error('later')), 5));
        },
      });
      const quiet = make({ onError: () => {} });
      const expected = await shape(await get(quiet, '/connections'));
      assert.equal(expected.status, 502);
      assert.deepEqual(await shape(await get(rejecting, '/connections')), expected);
      assert.deepEqual(await shape(await get(rejectingLater, '/connections')), expected);
      assert.equal(calls.length, 2);
      // Long enough for a rejection to be reported as unhandled.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('may throw synchronously: the answer is the same', async () => {
    const throwing = make({
      onError: () => {
        throw new Error('sync failure');
      },
    });
    const quiet = make({ onError: () => {} });
    assert.deepEqual(await shape(await get(throwing, '/connections')), await shape(await get(quiet, '/connections')));
  });
});

/** Every string reachable from `value` through own properties (enumerable or not), errors' causes included. */
function allStrings(value: unknown, out: string[] = [], seen = new Set<unknown>(), depth = 0): string[] {
  if (typeof value === 'string') out.push(value);
  if (typeof value !== 'object' || value === null || seen.has(value) || depth > 12) return out;
  seen.add(value);
  for (const name of Object.getOwnPropertyNames(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, name)!;
    if ('value' in descriptor) allStrings(descriptor.value, out, seen, depth + 1);
  }
  return out;
}

describe('what onError receives', () => {
  const KEY = API_KEY;
  /** A platform that echoes the key back in every way it can. */
  const echoing: typeof fetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/oauth-connect')) {
      return new Response(
        JSON.stringify({
          status: 500,
          title: `bad key ${KEY}`,
          detail: `the key ${KEY.toUpperCase()} was refused; encoded ${encodeURIComponent(KEY)}`,
          instance: `https://platform.example/v1/x?key=${KEY}`,
          context: { apiKey: KEY, nested: [{ again: `k=${KEY}` }] },
          issues: [{ detail: KEY, name: 'x', value: KEY }],
          echo: KEY,
        }),
        { status: 500, headers: { 'content-type': 'application/problem+json' } },
      );
    }
    if (url.pathname.includes('/connections/')) {
      return new Response(`<html><body>Internal error for X-Api-Key: ${KEY}</body></html>`, {
        status: 500,
        headers: { 'content-type': 'text/html' },
      });
    }
    throw new TypeError(`fetch failed: socket closed while sending ${KEY}`, {
      cause: new Error(`ECONNRESET ${KEY}`),
    });
  };

  it('never holds the API key, in any field of the info or of the error', async () => {
    const received: ConnectHandlerErrorInfo[] = [];
    const handler = make({ fetch: echoing, onError: (info) => void received.push(info) });
    const post = await handler(
      new Request(`${APP}/oauth-connect`, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'slack' }),
      }),
    );
    assert.equal(post.status, 502);
    assert.equal((await get(handler, '/connections/conn_1')).status, 502);
    assert.equal((await get(handler, '/connections')).status, 502);
    assert.equal(received.length, 3);
    const lower = KEY.toLowerCase();
    for (const info of received) {
      // A plain value, not what was thrown: JSON gives all of it.
      assert.equal(Object.getPrototypeOf(info.error), Object.prototype, info.message);
      assert.deepEqual(JSON.parse(JSON.stringify(info.error)), info.error, info.message);
      const texts = [JSON.stringify(info), ...allStrings(info)];
      for (const text of texts) {
        assert.ok(!text.toLowerCase().includes(lower), `${info.message}: ${text}`);
        assert.ok(!text.includes(encodeURIComponent(KEY)), `${info.message}: ${text}`);
      }
    }
    // Still useful to a logger: what failed, and that the key was there.
    const [connect, get1, list] = received.map((i) => i.error);
    assert.equal(connect.name, 'ProblemError');
    assert.equal(connect.status, 500);
    assert.equal(connect.title, 'bad key [redacted]');
    assert.equal(
      connect.detail,
      'the key [redacted] was refused; encoded [redacted]',
      'the key in any case and URL-encoded',
    );
    assert.equal(get1.status, 500);
    assert.match(String(get1.detail), /Internal error for X-Api-Key: \[redacted\]/);
    assert.equal(list.name, 'PlatformRequestError');
    assert.equal(list.code, 'network');
    assert.equal(list.cause?.name, 'TypeError');
    assert.match(String(list.cause?.message), /^fetch failed: socket closed while sending \[redacted\]$/);
    assert.equal(list.cause?.cause?.message, 'ECONNRESET [redacted]');
    assert.match(String(list.cause?.stack), /^TypeError: fetch failed: socket closed while sending \[redacted\]\n/);
  });
});

describe('what onError and the browser are told, route by route (src/server/handler.ts)', () => {
  let platform: TestServer;
  const errors: ConnectHandlerErrorInfo[] = [];

  function make(options: Partial<ConnectHandlerOptions> = {}): ConnectHandler {
    return createConnectHandler({
      apiKey: REPORT_KEY,
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => ADA,
      retry: false,
      onError: (info) => errors.push(info),
      ...options,
    });
  }

  /** A same-origin call; answers its status, its problem's detail (if any) and the one onError message (if any). */
  async function outcome(handler: ConnectHandler, method: string, path: string) {
    errors.length = 0;
    const response = await call(handler, path, {
      method,
      ...(method === 'POST' ? { body: { provider: 'slack' } } : {}),
    });
    const body = await response.json();
    assert.ok(errors.length <= 1, `${errors.length} onError calls`);
    return { status: response.status, detail: body.detail, body, kind: errors[0]?.kind, message: errors[0]?.message };
  }

  before(async () => {
    platform = await startTestServer();
  });
  after(() => platform.close());
  beforeEach(() => {
    platform.requests.length = 0;
  });

  it('answers an unexpected failure 500 and tells the server even once the browser left; only the abort is a 499', async () => {
    const afterLeaving = async (thrown: unknown) => {
      const controller = new AbortController();
      const handler = make({
        authorize: () => ({
          consumerRef: 'u',
          get groupRef(): string {
            controller.abort();
            throw thrown;
          },
        }),
      });
      errors.length = 0;
      const response = await handler(
        new Request(`${APP}/connections/c1`, {
          headers: { 'sec-fetch-site': 'same-origin' },
          signal: controller.signal,
        }),
      );
      return { status: response.status, detail: (await response.json()).detail, kinds: errors.map((e) => e.kind) };
    };
    const failed = { status: 500, detail: 'the connect handler failed', kinds: ['internal'] };
    assert.deepEqual(await afterLeaving(new TypeError('groupRef getter broke')), failed);
    assert.deepEqual(await afterLeaving({ name: 'AbortError' }), failed, 'no Error: not the abort');
    assert.deepEqual(await afterLeaving(new DOMException('the browser went away', 'AbortError')), {
      status: 499,
      detail: 'the request was aborted',
      kinds: [],
    });
  });

  it('names the operation that failed and what the platform answered', { timeout: 10_000 }, async () => {
    const handler = make();
    // The first line of the platform's detail only.
    const cause = 'answered 500 Platform says no: broken';
    platform.reply = () => failure(500);
    const list = await outcome(handler, 'GET', '/connections');
    assert.deepEqual([list.status, list.detail, list.kind], [502, 'the platform answered 500', 'platform']);
    assert.equal(list.message, `GET /connections answered 502: platform list-connections ${cause}`);
    platform.reply = () => failure(500);
    assert.equal(
      (await outcome(handler, 'POST', '/oauth-connect')).message,
      `POST /oauth-connect answered 502: platform oauth-connect ${cause}`,
    );
    // oauth-update: the connection is the caller's, then the update URL fails.
    platform.reply = (request) => (request.method === 'GET' ? { body: sampleConnection({ id: 'c1' }) } : failure(500));
    assert.equal(
      (await outcome(handler, 'PATCH', '/connections/c1:oauth-update')).message,
      `PATCH /connections/c1:oauth-update answered 502: platform oauth-update ${cause}`,
    );
  });

  it('tells a 404 to list-connections or oauth-connect as a misconfiguration', { timeout: 10_000 }, async () => {
    const handler = make();
    platform.reply = () => failure(404);
    for (const [method, path, operation] of [
      ['GET', '/connections', 'list-connections'],
      ['POST', '/oauth-connect', 'oauth-connect'],
    ]) {
      const seen = await outcome(handler, method, path);
      assert.equal(seen.status, 502, path);
      assert.equal(
        seen.detail,
        'the platform does not know this project: check baseUrl and project in the connect handler options',
        path,
      );
      assert.equal(seen.kind, 'misconfigured', path);
      assert.equal(
        seen.message,
        `${method} ${path} answered 502: the platform answered 404 to ${operation} for project "demo" at ${platform.url}/v1: check baseUrl and project`,
      );
    }
  });

  it(
    "refuses a list that is no array, and drops items that are not the caller group's connections",
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.reply = () => ({ body: { connections: [] } });
      const notArray = await outcome(handler, 'GET', '/connections');
      assert.equal(notArray.status, 502);
      assert.equal(notArray.kind, 'platform');
      assert.equal(
        notArray.message,
        'GET /connections answered 502: platform list-connections answered something other than an array',
      );
      assert.deepEqual(
        { ...errors[0].error, stack: undefined },
        {
          name: 'PlatformRequestError',
          message: 'list-connections answered something other than an array',
          code: 'invalid_response',
          stack: undefined,
        },
        'onError is told what was wrong with the answer',
      );
      const older = sampleConnection({ id: 'older' });
      const newer = { ...sampleConnection({ id: 'newer' }), createTime: '2026-02-01T00:00:00Z' };
      platform.reply = () => ({
        body: [null, 'conn', 7, { id: 'no-group' }, { id: 'odd', group: { groupRef: 7 } }, older, newer],
      });
      const list = await outcome(handler, 'GET', '/connections');
      assert.equal(list.status, 200);
      assert.deepEqual(
        (list.body as Array<{ id: string }>).map((c) => c.id),
        ['newer', 'older'],
        "the caller's connections only, newest first",
      );
    },
  );

  it('names the scheme of an unusable URL the platform answered', { timeout: 10_000 }, async () => {
    const handler = make();
    for (const [url, scheme] of [
      ['javascript:alert(1)', 'javascript'],
      ['  DATA:text/html,x', 'data'],
      ['consent.example/start?next=https://x', 'none'],
    ]) {
      platform.reply = () => urlReply(url);
      const seen = await outcome(handler, 'POST', '/oauth-connect');
      assert.equal(seen.status, 502, url);
      assert.equal(
        seen.message,
        `POST /oauth-connect answered 502: platform oauth-connect answered an unusable URL (scheme ${scheme}:)`,
        url,
      );
    }
    platform.reply = (request) =>
      request.method === 'GET' ? { body: sampleConnection({ id: 'c1' }) } : urlReply('ftp://consent.example/x');
    assert.equal(
      (await outcome(handler, 'PATCH', '/connections/c1:oauth-update')).message,
      'PATCH /connections/c1:oauth-update answered 502: platform oauth-update answered an unusable URL (scheme ftp:)',
    );
  });
});

describe('what onError and the browser are told about authorize()', () => {
  const errors: ConnectHandlerErrorInfo[] = [];
  const make = (authorize: ConnectHandlerOptions['authorize'], apiKey = REPORT_KEY) =>
    createConnectHandler({
      apiKey,
      baseUrl: 'http://127.0.0.1:9/v1',
      project: 'demo',
      authorize,
      onError: (info) => errors.push(info),
    });
  async function answer(handler: ConnectHandler) {
    errors.length = 0;
    const response = await handler(new Request(`${APP}/connections`, { headers: { 'sec-fetch-site': 'same-origin' } }));
    return { status: response.status, detail: (await response.json()).detail, messages: errors.map((e) => e.message) };
  }

  it('answers 401 with what to do when there is no user, and tells the log nothing', async () => {
    assert.deepEqual(await answer(make(() => null)), {
      status: 401,
      detail: 'sign in to connect an account',
      messages: [],
    });
  });

  it('logs the first line of what authorize() threw, trimmed, at most 240 characters', async () => {
    const threw = (message: string) =>
      make(() => {
        throw new Error(message);
      });
    assert.deepEqual(await answer(threw('  session store down  \nat line 2')), {
      status: 500,
      detail: 'the app could not check who you are',
      messages: ['GET /connections answered 500: authorize() threw Error: session store down'],
    });
    const exactly = 'x'.repeat(240);
    assert.deepEqual((await answer(threw(exactly))).messages, [
      `GET /connections answered 500: authorize() threw Error: ${exactly}`,
    ]);
    assert.deepEqual((await answer(threw(`${exactly}y`))).messages, [
      `GET /connections answered 500: authorize() threw Error: ${'x'.repeat(239)}…`,
    ]);
  });

  it('hides an API key full of regular-expression characters in the log', async () => {
    const key = 'k.+?(x)[y]-1';
    const handler = make(() => {
      throw new Error(`cannot reach ${key}`);
    }, key);
    assert.deepEqual((await answer(handler)).messages, [
      'GET /connections answered 500: authorize() threw Error: cannot reach [redacted]',
    ]);
  });

  it('refuses names that are not strings or are too long, as a bad user', async () => {
    for (const user of [
      { ...ADA, groupName: 42 },
      { ...ADA, consumerName: 'n'.repeat(513) },
    ]) {
      const seen = await answer(make(() => user as never));
      assert.equal(seen.status, 500, JSON.stringify(user).slice(0, 60));
      assert.match(
        seen.detail,
        /^the connect backend is misconfigured: its authorize\(\) returned neither a user nor null/,
      );
      assert.match(
        seen.messages[0] ?? '',
        /^GET \/connections answered 500: authorize\(\) returned an object with keys \[groupRef, consumerRef, (groupName|consumerName)\] whose \1 is (a number|513 characters long): authorize\(\) must return \{ groupRef, consumerRef \}/,
      );
    }
  });
});

describe('what the server is told (onError)', () => {
  const { platform, errors, make, asked } = handlerOnPlatformDouble();
  it(
    'gives method, path and status, hides the key in any case, keeps one line and at most 200 characters of path',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.reply = () =>
        problemReply(500, {
          title: `Broken ${DOUBLE_KEY.toUpperCase()}`,
          detail: `first line ${DOUBLE_KEY}\nsecond line`,
        });
      const path = `/connections/${'c'.repeat(300)}`;
      await problemOf(await call(handler, path), 502);
      assert.equal(errors.length, 1);
      const [info] = errors;
      assert.equal(info.method, 'GET');
      assert.equal(info.path, path);
      assert.equal(info.status, 502);
      assert.equal(info.kind, 'platform');
      assert.equal(
        info.message,
        `GET ${path.slice(0, 200)} answered 502: platform get-connection answered 500 Broken [redacted]: first line [redacted]`,
      );
    },
  );

  it(
    "logs the first 160 characters of the platform's detail, and what the client says when there is no answer",
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.reply = () => problemReply(500, { title: 'Down', detail: 'd'.repeat(300) });
      await problemOf(await call(handler, '/connections/c1'), 502);
      assert.equal(
        errors[0].message,
        `GET /connections/c1 answered 502: platform get-connection answered 500 Down: ${'d'.repeat(159)}…`,
      );
      platform.reply = () => ({ body: 'not json' });
      await problemOf(await call(handler, '/connections/c1'), 502);
      assert.match(
        errors[1].message,
        /^GET \/connections\/c1 answered 502: platform get-connection the answer to GET .* is not JSON$/,
      );
    },
  );

  it('answers the same when the logger throws', { timeout: 10_000 }, async () => {
    const handler = make({
      onError: () => {
        throw new Error('logger down');
      },
    });
    platform.reply = () => problemReply(500);
    const body = await problemOf(await call(handler, '/connections/c1'), 502);
    assert.equal(body.detail, 'the platform answered 500');
  });

  it(
    'tells nothing and answers 499 when the browser went away before the platform answered',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const controller = new AbortController();
      // The browser leaves while the platform looks the connection up.
      platform.reply = (request) => {
        if (request.method !== 'GET') return urlReply('https://consent.example/u');
        controller.abort();
        return { body: sampleConnection({ id: 'c1' }) };
      };
      const response = await call(handler, '/connections/c1:oauth-update', {
        method: 'PATCH',
        signal: controller.signal,
      });
      const body = await problemOf(response, 499);
      assert.equal(body.title, 'Client Closed Request');
      assert.equal(body.detail, 'the request was aborted');
      assert.deepEqual(
        asked().map((r) => r.method),
        ['GET'],
        'no update URL is asked for a browser that left',
      );
      assert.deepEqual(errors, []);
    },
  );
});

describe('the log line', () => {
  it('is one line: every run of line breaks in what it tells becomes one space', () => {
    const lines: string[] = [];
    const report = createReporter('k-123', (info) => void lines.push(info.message));
    const fault = new ServerFault(
      new HttpProblem({ status: 502 }),
      'platform',
      'first\r\nsecond\n\nthird\rfourth',
      null,
    );
    report(fault, new Request('http://app.test/api/connect/connections'), 502);
    assert.deepEqual(lines, ['GET /api/connect/connections answered 502: first second third fourth']);
  });
});
