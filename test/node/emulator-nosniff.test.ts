// Every answer of the emulator carries X-Content-Type-Options: nosniff, so a
// browser never guesses another type than the one declared: JSON, problems,
// 204s, HTML pages, redirects, preflights, icons, plain-text URLs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

const BASE = 'http://127.0.0.1:4010';

async function consentPath(emulator: Emulator, groupRef: string): Promise<string> {
  const response = await emulator.handle(
    new Request(`${BASE}/v1/oauth-connect`, {
      method: 'POST',
      headers: { 'x-api-key': emulator.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: 'proj_demo', provider: 'slack', groupRef, consumerRef: 'n-c' }),
    }),
  );
  assert.equal(response.status, 200);
  return new URL((await response.json()) as string).pathname;
}

function assertNosniff(response: Response, what: string) {
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what);
}

describe('emulator: X-Content-Type-Options: nosniff on every answer', () => {
  const key = (emulator: Emulator) => ({ 'x-api-key': emulator.apiKey });

  it('JSON answers', async () => {
    const emulator = createEmulator();
    const response = await emulator.handle(new Request(`${BASE}/v1/projects/demo`, { headers: key(emulator) }));
    assert.equal(response.status, 200);
    assertNosniff(response, 'a JSON answer');
  });

  it('problems (401, 404, 405, 400, 415) as JSON', async () => {
    const emulator = createEmulator();
    const requests = [
      new Request(`${BASE}/v1/projects/demo`),
      new Request(`${BASE}/v1/no-such-route`, { headers: key(emulator) }),
      new Request(`${BASE}/v1/projects/demo`, { method: 'PUT', headers: key(emulator) }),
      new Request(`${BASE}/v1/oauth-connect`, {
        method: 'POST',
        headers: { ...key(emulator), 'content-type': 'application/json' },
        body: '{',
      }),
      new Request(`${BASE}/consent/x`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
    ];
    for (const request of requests) {
      const response = await emulator.handle(request);
      assert.ok(response.status >= 400, `${request.method} ${request.url}: ${response.status}`);
      assert.match(response.headers.get('content-type') ?? '', /problem\+json/);
      assertNosniff(response, `${request.method} ${request.url}`);
    }
  });

  it('204 answers', async () => {
    const emulator = createEmulator();
    const response = await emulator.handle(
      new Request(`${BASE}/v1/projects/demo/connections/conn_demo`, { method: 'DELETE', headers: key(emulator) }),
    );
    assert.equal(response.status, 204);
    assertNosniff(response, 'a 204');
  });

  it('plain-text URLs (urlFormat text)', async () => {
    const emulator = createEmulator({ urlFormat: 'text' });
    const response = await emulator.handle(
      new Request(`${BASE}/v1/oauth-connect`, {
        method: 'POST',
        headers: { ...key(emulator), 'content-type': 'application/json' },
        body: JSON.stringify({ projectId: 'proj_demo', provider: 'slack', groupRef: 't', consumerRef: 't' }),
      }),
    );
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/plain/);
    assertNosniff(response, 'a text/plain URL');
  });

  it('HTML pages: the consent page, the callback page, an error page', async () => {
    const emulator = createEmulator();
    const path = await consentPath(emulator, 'nosniff-html');
    const page = await emulator.handle(new Request(`${BASE}${path}`, { headers: { accept: 'text/html' } }));
    assert.equal(page.status, 200);
    assertNosniff(page, 'the consent page');
    const post = await emulator.handle(
      new Request(`${BASE}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body: 'decision=allow',
      }),
    );
    assert.equal(post.status, 303);
    assertNosniff(post, 'the redirect after the form');
    const callback = await emulator.handle(new Request(new URL(post.headers.get('location')!, BASE)));
    assert.equal(callback.status, 200);
    assertNosniff(callback, 'the callback page');
    const error = await emulator.handle(new Request(`${BASE}/consent/unknown`, { headers: { accept: 'text/html' } }));
    assert.equal(error.status, 404);
    assert.match(error.headers.get('content-type') ?? '', /text\/html/);
    assertNosniff(error, 'an error page');
  });

  it('preflights, allowed and refused', async () => {
    const emulator = createEmulator();
    for (const origin of ['http://localhost:5173', 'https://elsewhere.example']) {
      const response = await emulator.handle(
        new Request(`${BASE}/v1/projects/demo`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
        }),
      );
      assertNosniff(response, `a preflight from ${origin} (${response.status})`);
    }
  });

  it('icons', async () => {
    const emulator = createEmulator();
    const response = await emulator.handle(new Request(`${BASE}/media/slack.svg`));
    assert.equal(response.status, 200);
    assertNosniff(response, 'an icon');
  });

  it('through the Node listener too', async () => {
    const emulator = createEmulator();
    const info = await emulator.listen();
    try {
      const response = await fetch(`${info.baseUrl}/projects/demo`);
      await response.arrayBuffer();
      assert.equal(response.status, 401);
      assertNosniff(response, 'a problem over HTTP');
    } finally {
      await emulator.close();
    }
  });
});
