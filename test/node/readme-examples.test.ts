import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runReadmeExample } from './helpers/readme.js';
import { startTestServer } from './helpers/http-server.js';

describe('README examples', () => {
  it('the API client example runs as written', async () => {
    const server = await startTestServer((request) => {
      if (request.method === 'POST' && request.path === '/v1/oauth-connect') {
        return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'https://consent.example.test/start?c=1' };
      }
      return {
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
        body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no connection does-not-exist' },
      };
    });
    try {
      const result = await runReadmeExample('client', { PLATFORM_BASE_URL: `${server.url}/v1`, PLATFORM_API_KEY: 'k' });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(
        result.stdout,
        'send the browser to https://consent.example.test/start?c=1\n404 Not Found no connection does-not-exist\n',
      );
      assert.equal(server.requests[0].headers['x-api-key'], 'k');
    } finally {
      await server.close();
    }
  });
});

describe('README examples (emulator)', () => {
  it('the emulator example runs as written', async () => {
    const result = await runReadmeExample('emulator', {});
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'hubspot bad_credentials\n');
  });
});
