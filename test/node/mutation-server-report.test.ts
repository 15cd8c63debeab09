// What the server's log (onError) and the browser are told when a route fails, route by route, with the exact
// words: a mutation run (npm run mutate -- server) showed that a handler naming the wrong operation, dropping the
// cause, or cutting authorize()'s message differently passed every test.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
} from '../../src/server/index.js';
import { sampleConnection } from '../shared/fixtures.js';
import { APP, call, problemReply, urlReply } from './helpers/handler-calls.js';
import { startTestServer, type TestServer } from './helpers/http-server.js';

const API_KEY = 'Report-Key-4Tz9Qw';
const ADA = { groupRef: 'acme', consumerRef: 'user-ada' };

/** A failing platform: its problem's detail has a second line, which the log must not carry. */
const failure = (status: number) => problemReply(status, { detail: 'broken\nat depth' });

describe('what onError and the browser are told, route by route (src/server/handler.ts)', () => {
  let platform: TestServer;
  const errors: ConnectHandlerErrorInfo[] = [];

  function make(options: Partial<ConnectHandlerOptions> = {}): ConnectHandler {
    return createConnectHandler({
      apiKey: API_KEY,
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
  const make = (authorize: ConnectHandlerOptions['authorize'], apiKey = API_KEY) =>
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
      assert.equal(seen.detail, 'the app could not check who you are');
      assert.match(seen.messages[0] ?? '', /authorize\(\) must return null or \{ groupRef, consumerRef \}/);
    }
  });
});
