// Rules of the emulator's wiring (src/emulator/emulator.ts) that mutation testing
// (npm run mutate -- emulator) asks a test to hold: which options it refuses, which
// paths it serves as middleware, how it routes and answers 405s and validation
// problems, and what a browser gets for an error. Real HTTP, real emulator.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator, type ListenInfo } from '../../src/emulator/index.js';

const KEY = { 'x-api-key': 'dev-api-key' };
const NOW = Date.parse('2026-06-01T12:00:00Z');

describe('emulator wiring held by mutation testing', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  before(async () => {
    emulator = createEmulator({ now: () => new Date(NOW) });
    info = await emulator.listen();
  });
  after(() => emulator.close());

  it('refuses options it cannot honour with a TypeError, and takes the edge values it can', () => {
    for (const [options, why] of [
      [{ apiKey: '' }, 'an empty API key'],
      [{ verifyDelay: -1 }, 'a negative delay'],
      [{ verifyDelay: Number.NaN }, 'a delay that is not a number'],
      [{ verifyDelay: Number.POSITIVE_INFINITY }, 'an endless delay'],
      [{ urlFormat: 'xml' }, 'an unknown URL format'],
      [{ jwtSecret: 'x'.repeat(15) }, 'a secret of 15 characters'],
      [{ publicUrl: 'ftp://files.example' }, 'a public URL that is not http(s)'],
    ] as const) {
      assert.throws(() => createEmulator(options as never), TypeError, why);
    }
    assert.doesNotThrow(() => createEmulator({ verifyDelay: 0, jwtSecret: 'x'.repeat(16), urlFormat: 'text' }));
    assert.doesNotThrow(() => createEmulator({ publicUrl: 'http://plain.example' }));
  });

  it('hands out URLs at the public URL origin, whatever path it was given with', async () => {
    const behind = createEmulator({ publicUrl: 'https://proxy.example:8443/some/base/?q=1' });
    const at = await behind.listen();
    try {
      const response = await fetch(`${at.baseUrl}/projects`, {
        method: 'POST',
        headers: { ...KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ appName: 'Behind', name: 'behind-proxy', orgId: 'org_demo' }),
      });
      assert.match(response.headers.get('location')!, /^https:\/\/proxy\.example:8443\/v1\/projects\/proj_/);
    } finally {
      await behind.close();
    }
  });

  it('as middleware, serves /v1, /search/v1, /consent/ and /oauth/callback, and passes anything else on', async () => {
    const passed: string[] = [];
    const host: Server = createServer((req, res) =>
      emulator.listener(req, res, () => {
        passed.push(req.url!);
        res.writeHead(299).end();
      }),
    );
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
      const status = async (path: string) => (await fetch(`${origin}${path}`)).status;
      assert.equal(await status('/v1'), 404, "the bare /v1 is the emulator's");
      assert.equal(await status('/search/v1'), 404);
      assert.equal(await status('/v1/providers/slack'), 200);
      assert.equal(await status('/search/v1/nothing'), 404);
      assert.equal(await status('/consent/nope'), 404);
      assert.equal(await status('/oauth/callback'), 404);
      for (const path of ['/', '/v10/x', '/v1x', '/search/v2/x', '/consentx', '/app/v1/x']) {
        assert.equal(await status(path), 299, path);
      }
      assert.deepEqual(passed, ['/', '/v10/x', '/v1x', '/search/v2/x', '/consentx', '/app/v1/x']);
    } finally {
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
    }
  });

  // ownsPath() once took every path that starts with '/oauth/callback', so a host app's /oauth/callback-app route
  // was answered 404 by the emulator instead of reaching next().
  it('as middleware, passes on a host path that only starts like /oauth/callback', async () => {
    let passedOn = false;
    const host: Server = createServer((req, res) =>
      emulator.listener(req, res, () => {
        passedOn = true;
        res.writeHead(299).end();
      }),
    );
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
      assert.equal((await fetch(`${origin}/oauth/callback-app`)).status, 299);
      assert.ok(passedOn);
    } finally {
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
    }
  });

  it('answers 405 with every method the path allows, and 404 to a path of the other server', async () => {
    const response = await fetch(`${info.baseUrl}/projects/demo/connections/conn_demo`, {
      method: 'PUT',
      headers: KEY,
    });
    assert.equal(response.status, 405);
    assert.deepEqual(response.headers.get('allow')!.split(', ').sort(), ['DELETE', 'GET']);
    const problem = await response.json();
    assert.equal(problem.status, 405);
    assert.match(problem.detail, /^PUT is not allowed here/);
    const searchOnBase = await fetch(`${info.searchUrl}/projects/demo/destinations`, { headers: KEY });
    assert.equal(searchOnBase.status, 404, 'destinations live on the base server only');
    const baseOnSearch = await fetch(`${info.url}/v1/projects/demo/integrations/int_demo?groupRef=acme`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ objectName: 'contact', fieldFilters: [] }),
    });
    assert.equal(baseOnSearch.status, 405);
  });

  it('answers every invalid field at once as one validation problem', async () => {
    const response = await fetch(`${info.baseUrl}/projects`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ appName: '', name: '-bad-', orgId: 'org_demo' }),
    });
    assert.equal(response.status, 400);
    const problem = await response.json();
    assert.equal(problem.type, 'urn:connect-provider:problem:validation');
    assert.equal(problem.title, 'Invalid request');
    assert.equal(problem.issues.length, 2);
    assert.match(problem.detail, /^2 problems: /);
    assert.ok(problem.detail.includes(problem.issues[0].detail) && problem.detail.includes(problem.issues[1].detail));
    const one = await fetch(`${info.baseUrl}/projects`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ appName: 'Fine', name: '-bad-', orgId: 'org_demo' }),
    });
    const single = await one.json();
    assert.equal(single.issues.length, 1);
    assert.equal(single.detail, single.issues[0].detail);
  });

  it('prefers projectId to projectIdOrName when oauth-connect is given both', async () => {
    const response = await fetch(`${info.baseUrl}/oauth-connect`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        projectId: 'nope',
        projectIdOrName: 'demo',
        provider: 'slack',
        groupRef: 'g',
        consumerRef: 'c',
      }),
    });
    assert.equal(response.status, 404);
  });

  it('stamps problems with the instance, the clock and the request ID of the answer', async () => {
    const response = await fetch(`${info.baseUrl}/projects/nope?x=1`, { headers: KEY });
    assert.equal(response.status, 404);
    const problem = await response.json();
    assert.equal(problem.instance, `${info.baseUrl}/projects/nope`);
    assert.equal(problem.time, new Date(NOW).toISOString());
    assert.equal(problem.requestId, response.headers.get('x-request-id'));
    assert.match(problem.requestId, /^[0-9a-f-]{36}$/);
  });

  it('shows a browser an HTML error page outside the API, and problem+json inside it', async () => {
    const html = { accept: 'text/html,application/xhtml+xml' };
    const page = await fetch(`${info.url}/consent/nope`, { headers: html });
    assert.equal(page.status, 404);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    const text = await page.text();
    assert.match(text, /<h1>Unknown authorization<\/h1>/);
    assert.match(text, /start again from the app/);
    assert.ok(page.headers.get('x-request-id'));
    for (const url of [`${info.baseUrl}/projects/nope`, `${info.searchUrl}/nothing`]) {
      const api = await fetch(url, { headers: { ...KEY, ...html } });
      assert.equal(api.headers.get('content-type'), 'application/problem+json', url);
    }
    const untitled = await fetch(`${info.url}/oauth/callback`, { method: 'PUT', headers: html });
    assert.equal(untitled.status, 405);
    const untitledPage = await untitled.text();
    assert.match(
      untitledPage,
      /<title>Method Not Allowed<\/title>/,
      'a problem without a title is titled by its status',
    );
    assert.match(untitledPage, /<h1>Method Not Allowed<\/h1>/);
    assert.match(untitledPage, /<p>PUT is not allowed here; allowed: GET<\/p>/);
  });

  it('answers the URL as plain text, uncached, when asked to mimic the real service', async () => {
    const text = createEmulator({ urlFormat: 'text' });
    const at = await text.listen();
    try {
      const response = await fetch(`${at.baseUrl}/oauth-connect`, {
        method: 'POST',
        headers: { ...KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ projectId: 'demo', provider: 'slack', groupRef: 'g', consumerRef: 'c' }),
      });
      assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.match(await response.text(), /^http:\/\/127\.0\.0\.1:\d+\/consent\/consent_/);
      const project = await fetch(`${at.baseUrl}/projects/demo`, { headers: KEY });
      assert.equal(project.headers.get('content-type'), 'application/json', 'other answers stay JSON');
    } finally {
      await text.close();
    }
  });

  it('listens once at a time, on IPv6 too, and forgets its address once closed', async (t) => {
    await assert.rejects(emulator.listen(), /already listening/);
    const v6 = createEmulator();
    try {
      const at = await v6.listen(0, '::1').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT') return undefined;
        throw error;
      });
      if (!at) return t.skip('this machine has no IPv6 loopback');
      assert.match(at.url, /^http:\/\/\[::1\]:\d+$/);
      assert.equal(at.baseUrl, `${at.url}/v1`);
      assert.equal(at.searchUrl, `${at.url}/search/v1`);
      assert.equal((await fetch(`${at.baseUrl}/providers/slack`)).status, 200);
      assert.deepEqual(v6.info, at);
    } finally {
      await v6.close();
    }
    assert.equal(v6.info, undefined);
    await v6.close();
  });
});
