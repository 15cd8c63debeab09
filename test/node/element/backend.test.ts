// How the element reads one answer of the host backend (src/element/backend.ts), against a real HTTP server: JSON
// read with the backend's clock; a page that is not a connect backend's named so, unless it is a 5xx or 429 (a
// proxy's error page, a failure that may pass); the problem's own retryable and retryAfter over the status; no
// answer at all a network error to retry.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BackendError, baseOf, callBackend, connectionPath, toConnections } from '../../../src/element/backend.js';
import type { Connection } from '../../../src/shared/types.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';

describe('callBackend', () => {
  let server: TestServer;
  let next: Reply;
  before(async () => {
    server = await startTestServer(() => next);
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const call = (body?: unknown, method = body ? 'POST' : 'GET') =>
    callBackend(
      `${server.url}/api/connect/connections`,
      method,
      { 'x-tenant': 't1' },
      body,
      new AbortController().signal,
    );
  /** The BackendError a call throws (the test fails if it resolves). */
  const failure = async (reply: Reply): Promise<BackendError> => {
    next = reply;
    const error = await call().then(
      (answer) => assert.fail(`resolved with ${JSON.stringify(answer)}`),
      (e: unknown) => e,
    );
    assert.ok(error instanceof BackendError, String(error));
    assert.equal(error.name, 'BackendError');
    return error;
  };

  it("should read a JSON answer, with the backend's clock from its Date header", async () => {
    next = { body: { items: [] }, headers: { date: 'Tue, 01 Dec 2026 10:00:00 GMT' } };
    assert.deepEqual(await call(), { data: { items: [] }, date: Date.parse('2026-12-01T10:00:00Z') });
  });

  it('should read an empty JSON answer as null, and a text answer as its text', async () => {
    next = { status: 200, body: '', headers: { 'content-type': 'application/json' } };
    assert.equal((await call()).data, null);
    next = { status: 200, body: 'plain', headers: { 'content-type': 'text/plain' } };
    assert.equal((await call()).data, 'plain');
  });

  it("should send a body as JSON with its type, no body without one, and the host's headers either way", async () => {
    next = { body: {} };
    await call({ provider: 'slack' });
    await call();
    const [post, get] = server.requests;
    assert.equal(post.method, 'POST');
    assert.equal(post.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(post.body), { provider: 'slack' });
    assert.equal(get.method, 'GET');
    assert.equal(get.headers['content-type'], undefined);
    assert.equal(get.body, '');
    for (const request of [post, get]) assert.equal(request.headers['x-tenant'], 't1');
  });

  it('should name an HTML page or a bare 404 as not a connect backend, not to be retried', async () => {
    for (const reply of [
      { status: 200, body: '<html>login</html>', headers: { 'content-type': 'text/html' } },
      { status: 403, body: '<html>denied</html>', headers: { 'content-type': 'text/html; charset=utf-8' } },
      { status: 404, body: 'Cannot GET /api/connect/connections', headers: { 'content-type': 'text/plain' } },
      { status: 404, body: '' },
    ]) {
      const error = await failure(reply);
      assert.equal(error.code, 'http_error');
      assert.equal(error.notBackend, true, JSON.stringify(reply));
      assert.equal(error.retryable, false);
      assert.equal(error.problem?.status, reply.status);
      assert.match(error.message, new RegExp(`^GET ${server.url}/api/connect/connections answered ${reply.status}`));
      assert.match(error.message, /not a connect backend$/);
    }
  });

  it("should take a proxy's HTML 5xx or 429 as a failure that may pass, not a missing route", async () => {
    for (const status of [502, 503, 504, 500, 429]) {
      const error = await failure({
        status,
        body: '<html>Bad Gateway</html>',
        headers: { 'content-type': 'text/html' },
      });
      assert.equal(error.notBackend, false, String(status));
      assert.equal(error.retryable, true, String(status));
      assert.equal(error.message, `the server answered ${status}`);
    }
  });

  it("should read a JSON 404 as the backend's problem", async () => {
    const error = await failure({
      status: 404,
      body: { status: 404, title: 'Not Found', detail: 'no such connection' },
    });
    assert.equal(error.code, 'http_error');
    assert.equal(error.notBackend, false);
    assert.equal(error.retryable, false);
    assert.equal(error.message, 'no such connection');
    assert.equal(error.problem?.title, 'Not Found');
  });

  it('should keep only the status as the problem of an answer whose body is no object', async () => {
    for (const reply of [
      { status: 400, body: 'nope', headers: { 'content-type': 'text/plain' } },
      { status: 500, body: '', headers: { 'content-type': 'application/json' } },
      { status: 409, body: '"taken"', headers: { 'content-type': 'application/json' } },
    ]) {
      const error = await failure(reply);
      assert.equal(error.code, 'http_error');
      assert.deepEqual(error.problem, { status: reply.status }, JSON.stringify(reply));
      assert.equal(error.message, `the server answered ${reply.status}`);
    }
  });

  it('should say the detail, else the title, else the status', async () => {
    assert.equal((await failure({ status: 400, body: { title: 'Bad Request' } })).message, 'Bad Request');
    assert.equal((await failure({ status: 400, body: {} })).message, 'the server answered 400');
  });

  it('should retry a malformed JSON answer only when it is a 5xx', async () => {
    const broken = (status: number) =>
      failure({ status, body: '{"x', headers: { 'content-type': 'application/json' } });
    const fiveHundred = await broken(500);
    assert.equal(fiveHundred.message, 'malformed JSON (500)');
    assert.equal(fiveHundred.code, 'http_error');
    assert.equal(fiveHundred.retryable, true);
    assert.equal((await broken(400)).retryable, false);
    assert.equal((await broken(200)).retryable, false, 'a 2xx that is not JSON is no answer to use');
  });

  it("should let the problem's own retryable decide over its status", async () => {
    assert.equal((await failure({ status: 503, body: { status: 503, retryable: false } })).retryable, false);
    assert.equal((await failure({ status: 409, body: { status: 409, retryable: true } })).retryable, true);
    assert.equal((await failure({ status: 409, body: { status: 409 } })).retryable, false);
  });

  it("should wait a Retry-After header's seconds first, else the problem's retryAfter", async () => {
    const header = await failure({ status: 503, body: { status: 503 }, headers: { 'retry-after': '7' } });
    assert.equal(header.retryAfterMs, 7000);
    const soon = new Date(Date.now() + 60_000).toISOString();
    const fromProblem = await failure({ status: 429, body: { status: 429, retryAfter: soon } });
    assert.ok(
      fromProblem.retryAfterMs! > 55_000 && fromProblem.retryAfterMs! <= 60_000,
      String(fromProblem.retryAfterMs),
    );
    const both = await failure({
      status: 429,
      body: { status: 429, retryAfter: soon },
      headers: { 'retry-after': '2' },
    });
    assert.equal(both.retryAfterMs, 2000);
    assert.equal((await failure({ status: 503, body: { status: 503 } })).retryAfterMs, undefined);
  });

  it('should take no answer, or a dropped connection, as a network error to retry', async () => {
    const dropped = await failure({ destroy: true });
    assert.equal(dropped.code, 'network_error');
    assert.equal(dropped.retryable, true);
    assert.equal(dropped.message, 'the server could not be reached');
    const closed = await startTestServer();
    await closed.close();
    const nowhere = await callBackend(`${closed.url}/x`, 'GET', {}, undefined, new AbortController().signal).catch(
      (e: unknown) => e,
    );
    assert.ok(nowhere instanceof BackendError && nowhere.code === 'network_error', String(nowhere));
  });
});

describe('the paths and the answer items', () => {
  it("should put a connection's ID into its path as one segment", () => {
    assert.equal(connectionPath('conn_1'), '/connections/conn_1');
    assert.equal(connectionPath('a/../b?c#d'), '/connections/a%2F..%2Fb%3Fc%23d');
  });

  it("should drop an endpoint's trailing slashes, and only those", () => {
    assert.equal(baseOf('/api/connect///'), '/api/connect');
    assert.equal(baseOf('https://app.example/api/connect'), 'https://app.example/api/connect');
    assert.equal(baseOf('/api//connect/'), '/api//connect');
  });

  it('should keep the items that are connections, without their credentials', () => {
    const connection = sampleConnection({ id: 'conn_1' });
    const withSecrets = { ...connection, apiKey: 'secret-key', oauth2AuthorizationCode: { accessToken: 't' } };
    const items = [withSecrets, null, 'conn_2', 42, { id: 7 }, { provider: 'slack' }] as unknown[];
    const kept = toConnections(items);
    assert.deepEqual(
      kept.map((c) => c.id),
      ['conn_1'],
    );
    assert.equal('apiKey' in kept[0], false);
    assert.equal('oauth2AuthorizationCode' in kept[0], false);
    assert.deepEqual(kept[0], connection as Connection);
  });

  it('should name a BackendError so, and call it a backend unless said otherwise', () => {
    const error = new BackendError('http_error', 'refused', false, { status: 400 });
    assert.equal(error.name, 'BackendError');
    assert.equal(error.notBackend, false);
    assert.ok(error instanceof Error);
  });
});
