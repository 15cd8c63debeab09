// The platform client's options (src/api/client.ts): base and search URLs, credentials, what it asks for, and the
// retry settings as a caller sees them.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformClient, PlatformRequestError, ProblemError } from '../../../src/api/index.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';

describe('createPlatformClient options', () => {
  let server: TestServer;
  let next: Reply;

  before(async () => {
    server = await startTestServer(() => next);
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    next = { status: 200, body: [] };
  });

  it('accepts a base URL with trailing slashes and asks for JSON, problems or text', async () => {
    const client = createPlatformClient({ baseUrl: `${server.url}/v1///`, apiKey: 'k' });
    await client.listDestinations({ projectIdOrName: 'p' });
    assert.equal(server.requests[0].path, '/v1/projects/p/destinations');
    assert.equal(server.requests[0].headers.accept, 'application/json, application/problem+json, text/plain');
    assert.equal(server.requests[0].headers['content-type'], undefined, 'no body, no content type');
  });

  it('refuses an empty credential and an unusable search URL', () => {
    assert.throws(
      () => createPlatformClient({ baseUrl: server.url, apiKey: '' }),
      /exactly one of apiKey and accessToken/,
    );
    assert.throws(
      () => createPlatformClient({ baseUrl: server.url, accessToken: '' }),
      /exactly one of apiKey and accessToken/,
    );
    assert.throws(
      () => createPlatformClient({ baseUrl: server.url, apiKey: 'k', searchUrl: 'nope' }),
      /searchUrl must be an absolute URL, got "nope"/,
    );
    assert.throws(
      () => createPlatformClient({ baseUrl: server.url, apiKey: 'k', fetch: 5 as never }),
      /no fetch available/,
    );
  });

  it('names the empty path parameter', async () => {
    const client = createPlatformClient({ baseUrl: server.url, apiKey: 'k' });
    await assert.rejects(client.listInvites({ orgId: '' }), /orgId must be a non-empty string/);
    await assert.rejects(
      client.deleteTopic({ projectIdOrName: 'p', topicId: '' }),
      /topicId must be a non-empty string/,
    );
    await assert.rejects(
      client.deleteDestination({ projectIdOrName: 'p', destination: '' }),
      /destination must be a non-empty string/,
    );
    await assert.rejects(
      client.deleteIntegration({ projectIdOrName: 'p', integrationId: '' }),
      /integrationId must be a non-empty string/,
    );
    await assert.rejects(
      client.oauthUpdate({ projectIdOrName: 'p', connectionId: '' }),
      /connectionId must be a non-empty string/,
    );
    assert.equal(server.requests.length, 0);
  });

  it('says which request failed, and how', async () => {
    const client = createPlatformClient({ baseUrl: `${server.url}/v1`, apiKey: 'k', retry: false, timeoutMs: 50 });
    next = { destroy: true };
    const patient = createPlatformClient({ baseUrl: `${server.url}/v1`, apiKey: 'k', retry: false });
    const dropped = await patient.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
    assert.ok(dropped instanceof PlatformRequestError);
    assert.match(dropped.message, new RegExp(`^GET ${server.url}/v1/projects/p/destinations failed: `));
    next = { body: [], delayMs: 300 };
    const slow = await client.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
    assert.equal(slow.code, 'timeout');
    assert.equal(slow.message, `GET ${server.url}/v1/projects/p/destinations got no answer within 50 ms`);
    next = { body: 'nope', headers: { 'content-type': 'application/json' } };
    const garbled = await patient.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
    assert.equal(garbled.code, 'invalid_response');
    assert.match(garbled.message, /is not JSON/);
  });

  it('retries a retryable problem after its backoff, and not a problem marked retryable: false', async () => {
    const client = createPlatformClient({
      baseUrl: server.url,
      apiKey: 'k',
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 1 },
    });
    next = { status: 500, body: { retryable: false } };
    await assert.rejects(client.listDestinations({ projectIdOrName: 'p' }), ProblemError);
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/projects/p/destinations'],
    );
    server.requests.length = 0;
    next = { status: 500, body: { retryable: true } };
    await assert.rejects(client.listDestinations({ projectIdOrName: 'p' }), ProblemError);
    assert.equal(server.requests.length, 2, 'the first attempt and one retry');
  });

  it('ends a call at its time-out, retries and all: the budget is spent, so a time-out is never retried', async () => {
    const client = createPlatformClient({
      baseUrl: server.url,
      apiKey: 'k',
      timeoutMs: 50,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 },
    });
    next = { body: [], delayMs: 200 };
    const error = await client.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
    assert.equal(error.code, 'timeout');
    assert.equal(server.requests.length, 1);
  });

  it('does not retry an answer that does not parse', async () => {
    const client = createPlatformClient({
      baseUrl: server.url,
      apiKey: 'k',
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 1 },
    });
    next = { body: 'nope', headers: { 'content-type': 'application/json' } };
    await assert.rejects(client.listDestinations({ projectIdOrName: 'p' }), PlatformRequestError);
    assert.equal(server.requests.length, 1);
  });

  it('waits the default backoff (250 ms, then more) when the platform names no time', async () => {
    const client = createPlatformClient({ baseUrl: server.url, apiKey: 'k', retry: { retries: 1 } });
    next = { status: 503, body: {} };
    const started = Date.now();
    await assert.rejects(client.listDestinations({ projectIdOrName: 'p' }), ProblemError);
    assert.ok(Date.now() - started >= 120, 'at least half of the first 250 ms window');
    assert.equal(server.requests.length, 2);
  });
});
