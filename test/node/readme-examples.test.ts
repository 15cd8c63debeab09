import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { runReadmeExample, serveReadmeExample, writeReadmeExamples } from './helpers/readme.js';
import { startTestServer } from './helpers/http-server.js';
import { freePort } from './helpers/ports.js';

describe('README examples', () => {
  it('the API client example runs as written', async () => {
    const server = await startTestServer((request) => {
      if (request.method === 'POST' && request.path === '/v1/oauth-connect') {
        return {
          status: 200,
          headers: { 'content-type': 'text/plain' },
          body: 'https://consent.example.test/start?c=1',
        };
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

describe('README examples (server)', () => {
  let emulator: Emulator;
  let env: Record<string, string>;

  before(async () => {
    emulator = createEmulator({ apiKey: 'readme-key', verifyDelay: 0 });
    const { baseUrl } = await emulator.listen();
    env = { PLATFORM_API_KEY: 'readme-key', PLATFORM_BASE_URL: baseUrl, PLATFORM_PROJECT: 'demo' };
  });
  after(() => emulator.close());

  /** The checks every mounting of the handler must pass. */
  async function exercise(base: string) {
    const origin = new URL(base).origin;
    const signedIn = { cookie: 'sid=demo-session', origin };
    const connect = await fetch(`${base}/api/connect/oauth-connect`, {
      method: 'POST',
      headers: { ...signedIn, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'salesforce' }),
    });
    assert.equal(connect.status, 200, await connect.clone().text());
    const answer = await connect.json();
    assert.match(answer.url, /\/consent\//);
    assert.equal(answer.messageOrigin, new URL(env.PLATFORM_BASE_URL).origin);
    const get = await fetch(`${base}/api/connect/connections/conn_demo`, { headers: signedIn });
    assert.equal(get.status, 200);
    assert.equal((await get.json()).id, 'conn_demo');
    const notAllowed = await fetch(`${base}/api/connect/oauth-connect`, {
      method: 'POST',
      headers: { ...signedIn, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'notion' }),
    });
    assert.equal(notAllowed.status, 400, 'the allow-list holds');
    const anonymous = await fetch(`${base}/api/connect/connections/conn_demo`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('content-type'), 'application/problem+json');
  }

  for (const name of ['node-http', 'express', 'hono']) {
    it(`the ${name} example serves the connect routes`, async () => {
      const port = await freePort();
      const server = await serveReadmeExample(name, { ...env, PORT: String(port) }, `http://127.0.0.1:${port}/`);
      try {
        await exercise(`http://127.0.0.1:${port}`);
      } finally {
        await server.stop();
      }
    });
  }

  it('the Next.js route module exports GET, POST and PATCH that serve the routes', async () => {
    const examples = writeReadmeExamples();
    Object.assign(process.env, env);
    try {
      const route = await import(examples.file('next'));
      assert.deepEqual(Object.keys(route).sort(), ['GET', 'PATCH', 'POST']);
      const origin = 'https://app.example';
      const post = await route.POST(
        new Request(`${origin}/api/connect/oauth-connect`, {
          method: 'POST',
          headers: { cookie: 'sid=demo-session', origin, 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'hubspot' }),
        }),
      );
      assert.equal(post.status, 200);
      const patch = await route.PATCH(
        new Request(`${origin}/api/connect/connections/conn_demo:oauth-update`, {
          method: 'PATCH',
          headers: { cookie: 'sid=demo-session', origin },
        }),
      );
      assert.equal(patch.status, 200);
      const get = await route.GET(
        new Request(`${origin}/api/connect/connections/conn_demo`, { headers: { cookie: 'sid=nobody' } }),
      );
      assert.equal(get.status, 401);
    } finally {
      examples.cleanup();
    }
  });
});
