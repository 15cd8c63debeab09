// Which of the platform client's operations are sent again (src/api/client.ts), and how a caller's abort and the
// time-out stop a request.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformClient, ProblemError } from '../../../src/api/index.js';
import type { PlatformClient } from '../../../src/api/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';

describe('createPlatformClient retries and aborts, operation by operation', () => {
  let server: TestServer;
  let answers: Reply[];
  const body = { objectName: 'o', fieldFilters: [] };
  // Every operation that is safe to send twice, with the request it makes.
  const idempotent: Array<[string, (c: PlatformClient) => Promise<unknown>, Reply]> = [
    ['listInvites', (c) => c.listInvites({ orgId: 'o' }), { body: [] }],
    [
      'getConnection',
      (c) => c.getConnection({ projectIdOrName: 'p', connectionId: 'c' }),
      { body: sampleConnection() },
    ],
    ['listConnections', (c) => c.listConnections({ projectIdOrName: 'p' }), { body: [] }],
    ['listDestinations', (c) => c.listDestinations({ projectIdOrName: 'p' }), { body: [] }],
    [
      'deleteDestination',
      (c) => c.deleteDestination({ projectIdOrName: 'p', destination: 'd' }),
      { body: { gone: true } },
    ],
    [
      'deleteIntegration',
      (c) => c.deleteIntegration({ projectIdOrName: 'p', integrationId: 'i' }),
      { body: { gone: true } },
    ],
    ['deleteTopic', (c) => c.deleteTopic({ projectIdOrName: 'p', topicId: 't' }), { status: 204 }],
    [
      'searchRecords',
      (c) => c.searchRecords({ projectIdOrName: 'p', integrationId: 'i', groupRef: 'g', body }),
      { body: { result: [] } },
    ],
    ['listTopicDestinationRoutes', (c) => c.listTopicDestinationRoutes({ projectIdOrName: 'p' }), { body: [] }],
    [
      'listNotificationEventTopicRoutes',
      (c) => c.listNotificationEventTopicRoutes({ projectIdOrName: 'p' }),
      { body: [] },
    ],
  ];

  before(async () => {
    server = await startTestServer(() => answers.shift() ?? { status: 500, body: { title: 'unexpected request' } });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });
  const client = () =>
    createPlatformClient({
      baseUrl: server.url,
      searchUrl: server.url,
      apiKey: 'k',
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 1 },
    });

  for (const [name, call, reply] of idempotent) {
    it(`${name} is sent again after a dropped connection`, async () => {
      answers = [{ destroy: true }, reply];
      await call(client());
      assert.equal(server.requests.length, 2);
    });
  }

  it('does not send anything for a signal aborted before the call', async () => {
    answers = [{ body: [] }];
    await assert.rejects(
      client().listDestinations({ projectIdOrName: 'p' }, { signal: AbortSignal.abort(new Error('never mind')) }),
      /never mind/,
    );
    assert.equal(server.requests.length, 0);
  });

  it('stops a request in flight when the caller aborts, and still times out with a signal given', async () => {
    answers = [{ body: [], delayMs: 3000 }];
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('left')), 100);
    const started = Date.now();
    await assert.rejects(client().listDestinations({ projectIdOrName: 'p' }, { signal: controller.signal }), /left/);
    assert.ok(Date.now() - started < 2000, 'did not wait for the answer');
    answers = [{ body: [], delayMs: 3000 }];
    const quick = createPlatformClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 100, retry: false });
    const error = await quick
      .listDestinations({ projectIdOrName: 'p' }, { signal: new AbortController().signal })
      .catch((e) => e);
    assert.equal(error.code, 'timeout');
  });

  it('waits a Retry-After equal to maxRetryAfterMs, and never retries with retry: false', async () => {
    answers = [{ status: 429, headers: { 'retry-after': '1' }, body: {} }, { body: [] }];
    const patient = createPlatformClient({ baseUrl: server.url, apiKey: 'k', retry: { maxRetryAfterMs: 1000 } });
    assert.deepEqual(await patient.listDestinations({ projectIdOrName: 'p' }), []);
    assert.equal(server.requests.length, 2);
    server.requests.length = 0;
    answers = [{ status: 503, body: {} }, { body: [] }];
    const once = createPlatformClient({ baseUrl: server.url, apiKey: 'k', retry: false });
    await assert.rejects(once.listDestinations({ projectIdOrName: 'p' }), ProblemError);
    assert.equal(server.requests.length, 1);
  });
});
