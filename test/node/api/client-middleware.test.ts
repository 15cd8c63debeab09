// The platform client (src/api/client.ts) on openapi-fetch's own extension points: each attempt is a standard
// Request with the credential set by middleware, path parameters are encoded by openapi-fetch, and every error
// status becomes a ProblemError whatever the operation reads from its answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformClient, ProblemError } from '../../../src/api/index.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';

describe('the platform client', () => {
  let server: TestServer;
  let answers: Reply[] = [];
  before(async () => {
    server = await startTestServer(() => answers.shift() ?? { status: 500, body: {} });
  });
  after(() => server.close());

  it('hands the fetch a standard Request carrying the one credential', async () => {
    const sent: Request[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push(input as Request);
      return fetch(input, init);
    };
    answers = [{ body: [] }, { body: [] }];
    const baseUrl = `${server.url}/v1`;
    await createPlatformClient({ baseUrl, apiKey: 'key-1', fetch: recording }).listIntegrations({
      projectIdOrName: 'p',
    });
    await createPlatformClient({ baseUrl, accessToken: 'jwt-1', fetch: recording }).listIntegrations({
      projectIdOrName: 'p',
    });
    assert.deepEqual(
      sent.map((r) => [Object.getPrototypeOf(r) === Request.prototype, r.method, r.url]),
      [
        [true, 'GET', `${baseUrl}/projects/p/integrations`],
        [true, 'GET', `${baseUrl}/projects/p/integrations`],
      ],
    );
    assert.deepEqual(
      server.requests.map((r) => [r.headers['x-api-key'], r.headers.authorization]),
      [
        ['key-1', undefined],
        [undefined, 'Bearer jwt-1'],
      ],
    );
  });

  it('sends each path parameter as one encoded segment', async () => {
    server.requests.length = 0;
    answers = [{ status: 204 }];
    const client = createPlatformClient({ baseUrl: `${server.url}/v1`, apiKey: 'k' });
    await client.deleteConnection({ projectIdOrName: 'a/b', connectionId: 'c?d e#f' });
    assert.equal(server.requests[0].path, '/v1/projects/a%2Fb/connections/c%3Fd%20e%23f');
  });

  it('throws a ProblemError for an error status, whether the operation reads JSON, a URL or nothing', async () => {
    const client = createPlatformClient({ baseUrl: `${server.url}/v1`, apiKey: 'k', retry: false });
    const calls = [
      () => client.getProject({ projectIdOrName: 'p' }),
      () => client.oauthConnect({ provider: 'x', groupRef: 'g', consumerRef: 'c' } as never),
      () => client.deleteConnection({ projectIdOrName: 'p', connectionId: 'c' }),
    ];
    for (const call of calls) {
      answers = [{ status: 409, headers: { 'content-type': 'text/plain' }, body: 'taken' }];
      await assert.rejects(
        call(),
        (error: ProblemError) => error instanceof ProblemError && error.status === 409 && error.detail === 'taken',
      );
    }
  });
});
