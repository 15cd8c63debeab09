// The emulator as an HTTP server: routing, 405s and problems, the headers of every answer, the URLs it hands out,
// the paths it serves as middleware, a client that goes away, listen() and close().
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { createEmulator, type Emulator, type ListenInfo } from '../../../src/emulator/index.js';
import { connectBody, emulatorPerSuite, KEY, post, withEmulator } from '../helpers/emulator.js';
import { withHost } from '../helpers/http-requests.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

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

describe('emulator X-Content-Type-Options: nosniff on every answer', () => {
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

describe('emulator and a client that aborts mid-body', () => {
  let emulator: Emulator;
  let port: number;

  before(async () => {
    emulator = createEmulator({ apiKey: 'abort-key', verifyDelay: 0 });
    port = Number(new URL((await emulator.listen()).baseUrl).port);
  });
  after(() => emulator.close());

  /** Sends the head and half of a 100-byte JSON body, then destroys the socket. */
  function halfABody(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Api-Key: abort-key\r\n` +
            `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"provider":"slack","pad":"`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
  }

  it('logs no internal error, and answers the next request', async () => {
    const logged: unknown[][] = [];
    const real = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      await halfABody('/v1/oauth-connect');
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      console.error = real;
    }
    assert.deepEqual(logged, []);
    const response = await fetch(`http://127.0.0.1:${port}/v1/projects/demo`, {
      headers: { 'x-api-key': 'abort-key' },
    });
    assert.equal(response.status, 200);
  });

  it('answers 499 and logs nothing when the body fails as its client goes away, or after its signal aborted', async () => {
    const gone = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const aborted = new AbortController();
    const requests: Array<[string, Request]> = [
      [
        'a body that fails with a connection reset',
        new Request(`${BASE}/v1/oauth-connect`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: new ReadableStream({ pull: (controller) => controller.error(gone) }),
          duplex: 'half',
        } as RequestInit),
      ],
      [
        'a body that fails once the signal aborted',
        new Request(`${BASE}/v1/oauth-connect`, {
          method: 'POST',
          signal: aborted.signal,
          headers: { ...KEY, 'content-type': 'application/json' },
          body: new ReadableStream({
            pull: (controller) => {
              aborted.abort();
              controller.error(new Error('the stream broke'));
            },
          }),
          duplex: 'half',
        } as RequestInit),
      ],
    ];
    const local = createEmulator();
    const logged: unknown[][] = [];
    const real = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      for (const [what, request] of requests) {
        const response = await local.handle(request);
        assert.equal(response.status, 499, what);
        const problem = await response.json();
        assert.equal(problem.title, 'Client Closed Request', what);
        assert.equal(problem.detail, 'the request was cut off', what);
      }
    } finally {
      console.error = real;
      await local.close();
    }
    assert.deepEqual(logged, []);
  });
});

describe('emulator routing and answers', () => {
  const suite = emulatorPerSuite();

  const post = (path: string, body: string) =>
    fetch(`${suite.info.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body,
    });
  describe('routing', () => {
    it('names the method and path of a route it does not have, under /v1 and elsewhere', async () => {
      const api = await fetch(`${suite.info.baseUrl}/nothing/here`, { headers: KEY });
      assert.equal(api.status, 404);
      assert.equal((await api.json()).detail, 'no such route: GET /v1/nothing/here');
      // Outside its own paths, a Node listener hands the request on; handle() answers it.
      const other = await suite.emulator.handle(new Request('http://127.0.0.1/elsewhere', { method: 'PUT' }));
      assert.equal(other.status, 404);
      assert.equal((await other.json()).detail, 'no such route: PUT /elsewhere');
    });

    it('answers 404 naming no route to one of its paths with something before or after it', async () => {
      const consent = await consentPath(suite.emulator, 'routes-whole-path');
      const session = `?session=${consent.slice('/consent/'.length)}`;
      const search = '/search/v1/projects/demo/integrations/int_demo?groupRef=acme';
      const searchInit = {
        method: 'POST',
        headers: { ...KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ objectName: 'contact', fieldFilters: [] }),
      };
      const call = (path: string, init: RequestInit = {}) => suite.emulator.handle(new Request(`${BASE}${path}`, init));
      // Each path as it is served, then the same path inside a longer one.
      const cases: Array<[string, RequestInit, string[]]> = [
        ['/v1/providers/slack', {}, ['/x/v1/providers/slack']],
        [search, searchInit, [`/x${search}`]],
        [consent, {}, [`/x${consent}`, `${consent}/extra`]],
        [`/oauth/callback${session}`, {}, [`/x/oauth/callback${session}`, `/oauth/callback/x${session}`]],
        ['/media/slack.svg', {}, ['/x/media/slack.svg']],
      ];
      for (const [path, init, longer] of cases) {
        const served = await call(path, init);
        assert.notEqual(served.status, 404, path);
        for (const other of longer) {
          const response = await call(other, init);
          assert.equal(response.status, 404, other);
          const pathname = other.split('?')[0];
          assert.equal((await response.json()).detail, `no such route: ${init.method ?? 'GET'} ${pathname}`, other);
        }
      }
    });

    it('counts and joins several problems of one request in the detail', async () => {
      const response = await post('/oauth-connect', JSON.stringify({ projectId: 'demo', provider: 'slack' }));
      const problem = await response.json();
      assert.equal(response.status, 400);
      assert.equal(problem.issues.length, 2);
      assert.equal(
        problem.detail,
        `2 problems: ${problem.issues.map((issue: { detail: string }) => issue.detail).join('; ')}`,
      );
    });

    it('answers a consent path that is not UTF-8 when decoded with a 400 saying so', async () => {
      const response = await fetch(`${suite.info.url}/consent/%E0%A4%A`);
      assert.equal(response.status, 400);
      assert.equal((await response.json()).detail, 'the path is not valid percent-encoded UTF-8');
    });
  });

  it('answers 204 without a body or a content type', async () => {
    const deleted = await fetch(`${suite.info.baseUrl}/projects/demo/connections/conn_demo`, {
      method: 'DELETE',
      headers: KEY,
    });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.headers.get('content-type'), null);
    assert.equal(await deleted.text(), '');
  });

  it('answers a request whose body breaks while read with a 500 problem, and logs it', async () => {
    const logged: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const response = await suite.emulator.handle(
        new Request('http://127.0.0.1/v1/oauth-connect', {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: new ReadableStream({
            pull(controller) {
              controller.error(new Error('the client went away'));
            },
          }),
          // @ts-expect-error Node's fetch needs duplex for a streamed body; not in the DOM types.
          duplex: 'half',
        }),
      );
      assert.equal(response.status, 500);
      const problem = await response.json();
      assert.equal(problem.detail, 'the emulator failed to answer this request');
      assert.equal(problem.instance, `${suite.info.baseUrl}/oauth-connect`);
      assert.equal(problem.requestId, response.headers.get('x-request-id'));
    } finally {
      console.error = consoleError;
    }
    assert.equal(logged.length, 1);
    assert.equal(logged[0][0], '[emulator] internal error');
    assert.equal((logged[0][1] as Error).message, 'the client went away');
  });
});

describe('emulator listen(), close() and flush()', () => {
  it('hands out the address a connection reached when listening on every IPv6 address, IPv4 ones included', async (t) => {
    const emulator = createEmulator();
    let info: ListenInfo;
    try {
      info = await emulator.listen(0, '::');
    } catch {
      t.skip('this machine cannot listen on ::');
      return;
    }
    try {
      const origin = `http://127.0.0.1:${new URL(info.url).port}`;
      const response = await fetch(`${origin}/v1/oauth-connect`, {
        method: 'POST',
        headers: { ...KEY, 'content-type': 'application/json' },
        body: JSON.stringify(connectBody()),
      });
      assert.equal(response.status, 200);
      const url: string = await response.json();
      assert.ok(url.startsWith(`${origin}/consent/`), url);
    } finally {
      await emulator.close();
    }
  });

  it('rejects listen() on a port in use with the system error', async () => {
    const blocker = createNetServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const emulator = createEmulator();
    try {
      await assert.rejects(emulator.listen(port), { code: 'EADDRINUSE' });
    } finally {
      await emulator.close();
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('stops serving at close(), and resolves flush() without a data file', async () => {
    const emulator = createEmulator();
    const info = await emulator.listen();
    assert.equal((await fetch(`${info.baseUrl}/providers/slack`)).status, 200);
    await emulator.flush();
    await emulator.close();
    assert.equal(emulator.info, undefined);
    await assert.rejects(fetch(`${info.baseUrl}/providers/slack`), TypeError);
  });
});

describe('emulator wiring: middleware, 405s, problems and URLs', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  before(async () => {
    emulator = createEmulator({ now: () => new Date(NOW) });
    info = await emulator.listen();
  });
  after(() => emulator.close());
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
    assert.deepEqual(response.headers.get('allow')!.split(', ').sort(), ['DELETE', 'GET', 'PATCH']);
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

describe('emulator requests that are no API call, and the URLs it hands out', () => {
  describe('malformed paths', () => {
    it('answers 4xx problems, not 500, to malformed percent-encoding', async () => {
      await withEmulator({}, async (e) => {
        for (const path of [
          '/consent/%E0%A4%A',
          '/v1/projects/%E0%A4%A/connections/x',
          '/oauth/callback?session=%E0%A4%A',
          '/search/v1/projects/%FF/integrations/x',
        ]) {
          const response = await fetch(`${e.info.url}${path}`, { headers: KEY });
          assert.ok(response.status >= 400 && response.status < 500, `${path}: ${response.status}`);
          assert.equal(response.headers.get('content-type'), 'application/problem+json', path);
        }
      });
    });
  });

  describe('a Request-like object that is no Request', () => {
    it('gets a 400 problem from handle(), not a rejected promise', async () => {
      const emulator = createEmulator();
      const response = await emulator.handle({
        url: '/v1/projects/demo',
        method: 'GET',
        headers: new Headers({ accept: 'text/html' }),
      } as unknown as Request);
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      const body = await response.json();
      assert.equal(body.detail, 'the request URL is not an absolute URL');
      assert.equal(body.instance, undefined);
      await emulator.close();
    });
  });

  describe('the URLs it hands out', () => {
    it('come from the listening address, never from the Host header', async () => {
      await withEmulator({}, async (e) => {
        const evil = 'evil.localhost:666';
        const connect = await withHost(`${e.info.baseUrl}/oauth-connect`, evil, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify(connectBody()),
        });
        assert.ok(JSON.parse(connect.body).startsWith(`${e.info.url}/consent/`), connect.body);
        const problem = await withHost(`${e.info.baseUrl}/projects/nope`, evil, { headers: KEY });
        assert.equal(JSON.parse(problem.body).instance, `${e.info.baseUrl}/projects/nope`);
        const created = await withHost(`${e.info.baseUrl}/projects`, evil, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ appName: 'H', name: 'host-test', orgId: 'org_demo' }),
        });
        assert.equal(created.status, 201);
        assert.match(String(created.headers.location), new RegExp(`^${e.info.baseUrl}/projects/proj_`));
      });
    });

    it('come from the address a connection reached when listening on every address', async () => {
      const emulator = createEmulator();
      const info = await emulator.listen(0, '0.0.0.0');
      try {
        const origin = `http://127.0.0.1:${new URL(info.url).port}`;
        const connect = await withHost(`${origin}/v1/oauth-connect`, 'evil.localhost', {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify(connectBody()),
        });
        assert.ok(JSON.parse(connect.body).startsWith(`${origin}/consent/`), connect.body);
      } finally {
        await emulator.close();
      }
    });

    it('come from --public-url when given', async () => {
      await withEmulator({ publicUrl: 'https://platform.test:8443/' }, async (e) => {
        const url = await (await post(`${e.info.baseUrl}/oauth-connect`, connectBody())).json();
        assert.match(url, /^https:\/\/platform\.test:8443\/consent\//);
        const problem = await (await fetch(`${e.info.baseUrl}/projects/nope`, { headers: KEY })).json();
        assert.equal(problem.instance, 'https://platform.test:8443/v1/projects/nope');
      });
    });

    it('come from the address the host server accepted the connection on, when mounted in one', async () => {
      const emulator = createEmulator();
      const server = createServer(emulator.listener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const connect = await withHost(`${origin}/v1/oauth-connect`, 'evil.localhost', {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify(connectBody()),
        });
        assert.ok(JSON.parse(connect.body).startsWith(`${origin}/consent/`), connect.body);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    /** A host server whose connections show `localAddress()` as their local address, with the emulator mounted. */
    async function hostReachedAt(emulator: Emulator, localAddress: () => string | undefined) {
      const server = createServer((req, res) => {
        Object.defineProperty(req.socket, 'localAddress', { value: localAddress(), configurable: true });
        emulator.listener(req, res);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return {
        port: (server.address() as AddressInfo).port,
        close: async () => {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        },
      };
    }

    it('come from an IPv4-mapped address as IPv4, and from another IPv6 address in brackets as it is', async () => {
      const emulator = createEmulator();
      let reached = '';
      const host = await hostReachedAt(emulator, () => reached);
      try {
        for (const [address, origin] of [
          ['::ffff:127.0.0.1', `http://127.0.0.1:${host.port}`],
          ['fd00::ffff:1', `http://[fd00::ffff:1]:${host.port}`],
        ]) {
          reached = address;
          const response = await fetch(`http://127.0.0.1:${host.port}/v1/projects/nope`, { headers: KEY });
          assert.equal((await response.json()).instance, `${origin}/v1/projects/nope`, address);
        }
      } finally {
        await host.close();
      }
    });

    it("come from the request's own origin when mounted where a connection shows no local address", async () => {
      const emulator = createEmulator();
      const host = await hostReachedAt(emulator, () => undefined);
      try {
        const problem = await withHost(`http://127.0.0.1:${host.port}/v1/projects/nope`, 'mounted.localhost:8080', {
          headers: KEY,
        });
        assert.equal(problem.status, 404);
        assert.equal(JSON.parse(problem.body).instance, 'http://mounted.localhost:8080/v1/projects/nope');
      } finally {
        await host.close();
      }
    });
  });
});
