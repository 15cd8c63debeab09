// CORS: which origins the emulator answers (loopback only with the default API key, the listed ones, or any), and
// what its preflights, refusals and answers carry.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator, type ListenInfo } from '../../../src/emulator/index.js';
import { KEY, problemOf } from '../helpers/emulator.js';

const LOOPBACK = [
  'http://localhost',
  'http://localhost:5173',
  'https://localhost:8443',
  'http://app.localhost:3000',
  'http://LOCALHOST:4000',
  'http://127.0.0.1:8000',
  'http://127.5.6.7',
  'http://[::1]:3000',
];
const ELSEWHERE = [
  'http://app.example:3000',
  'https://evil.example',
  'http://localhost.evil.example',
  'http://127.0.0.1.nip.io',
  'http://10.0.0.5:3000',
  'http://[::2]:3000',
  'null',
  'file://',
];

const started: Emulator[] = [];
after(() => Promise.all(started.map((e) => e.close())));

async function start(options: Parameters<typeof createEmulator>[0] = {}) {
  const emulator = createEmulator(options);
  started.push(emulator);
  const info = await emulator.listen();
  const preflight = (origin: string, privateNetwork = false) =>
    fetch(`${info.baseUrl}/projects/demo`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
        ...(privateNetwork ? { 'access-control-request-private-network': 'true' } : {}),
      },
    });
  const get = (origin: string) =>
    fetch(`${info.baseUrl}/projects/demo`, { headers: { origin, 'x-api-key': emulator.apiKey } });
  return { emulator, info, preflight, get };
}

describe('emulator CORS: loopback only with the default API key', () => {
  it('answers loopback origins, echoing each and varying by Origin', async () => {
    const { preflight, get } = await start();
    for (const origin of LOOPBACK) {
      const pre = await preflight(origin);
      assert.equal(pre.status, 204, origin);
      assert.equal(pre.headers.get('access-control-allow-origin'), origin, origin);
      assert.match(pre.headers.get('vary') ?? '', /Origin/, origin);
      const answer = await get(origin);
      assert.equal(answer.status, 200, origin);
      assert.equal(answer.headers.get('access-control-allow-origin'), origin, origin);
      assert.match(answer.headers.get('access-control-expose-headers') ?? '', /x-request-id/, origin);
    }
  });

  it('refuses any other origin: a 403 preflight, and answers no script may read', async () => {
    const { preflight, get } = await start();
    for (const origin of ELSEWHERE) {
      const pre = await preflight(origin);
      assert.equal(pre.status, 403, origin);
      assert.equal(pre.headers.get('content-type'), 'application/problem+json', origin);
      assert.equal(pre.headers.get('access-control-allow-origin'), null, origin);
      const answer = await get(origin);
      assert.equal(answer.headers.get('access-control-allow-origin'), null, origin);
      assert.equal(answer.headers.get('access-control-expose-headers'), null, origin);
      assert.match(answer.headers.get('vary') ?? '', /Origin/, origin);
    }
  });

  it('answers a loopback origin only as scheme://host[:port] over http or https, a trailing slash at most', async () => {
    const { preflight, get } = await start();
    const slashed = await preflight('http://localhost:5173/');
    assert.equal(slashed.status, 204);
    assert.equal(slashed.headers.get('access-control-allow-origin'), 'http://localhost:5173/');
    for (const origin of [
      'http://localhost:5173/app',
      'http://localhost:5173?x=1',
      'http://user@localhost:5173',
      'ws://localhost:5173',
      'wss://[::1]:3000',
      'ftp://127.0.0.1',
    ]) {
      assert.equal((await preflight(origin)).status, 403, origin);
      assert.equal((await get(origin)).headers.get('access-control-allow-origin'), null, origin);
    }
  });

  it('grants nothing to a request without Origin (no page asked), with the default key or listed origins', async () => {
    for (const { info } of [await start(), await start({ corsOrigins: ['https://app.example'] })]) {
      const response = await fetch(`${info.baseUrl}/projects/demo`, { headers: KEY });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), null);
      assert.equal(response.headers.get('access-control-expose-headers'), null);
      assert.equal(response.headers.get('vary'), 'Origin');
    }
  });

  it("never grants Chromium's private-network access, even to a loopback origin", async () => {
    const { preflight } = await start();
    for (const origin of [...LOOPBACK, 'https://evil.example']) {
      const pre = await preflight(origin, true);
      assert.equal(pre.headers.get('access-control-allow-private-network'), null, origin);
    }
  });

  it('opens to the origins given (corsOrigins), and to any with an API key of its own', async () => {
    const listed = await start({ corsOrigins: ['https://app.example'] });
    assert.equal((await listed.preflight('https://app.example')).status, 204);
    assert.equal(
      (await listed.preflight('https://app.example', true)).headers.get('access-control-allow-private-network'),
      'true',
      'an origin opened on purpose may reach the loopback server',
    );
    assert.equal((await listed.preflight('https://evil.example')).status, 403);
    assert.equal((await listed.preflight('http://localhost:5173')).status, 403, 'exactly the origins given');

    const any = await start({ corsOrigins: ['*'] });
    assert.equal((await any.preflight('https://evil.example')).headers.get('access-control-allow-origin'), '*');

    const ownKey = await start({ apiKey: 'a-key-of-my-own' });
    const pre = await ownKey.preflight('https://app.example', true);
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.equal(pre.headers.get('access-control-allow-private-network'), 'true');
    assert.equal((await ownKey.get('https://app.example')).headers.get('access-control-allow-origin'), '*');
  });

  it('says which origins it answers', async () => {
    assert.match(createEmulator().corsOrigins, /^loopback/);
    assert.equal(createEmulator({ apiKey: 'a-key-of-my-own' }).corsOrigins, '*');
    assert.equal(
      createEmulator({ corsOrigins: ['https://a.example', 'http://b.example:8080'] }).corsOrigins,
      'https://a.example, http://b.example:8080',
    );
  });
});

describe('emulator CORS opened to any origin', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  let base: string;
  let search: string;
  before(async () => {
    emulator = createEmulator({ corsOrigins: '*' });
    info = await emulator.listen();
    base = info.baseUrl;
    search = info.searchUrl;
  });
  after(() => emulator.close());

  describe('CORS (opened to any origin)', () => {
    const origin = 'http://app.example:3000';

    it('answers a preflight with the method and headers asked for', async () => {
      const response = await fetch(`${base}/projects/demo/connections/conn_demo`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'DELETE',
          'access-control-request-headers':
            'X-Api-Key, Content-Type, X-Amp-Client, X-Amp-Client-Version, Authorization',
        },
      });
      assert.equal(response.status, 204);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.equal(response.headers.get('access-control-allow-methods'), 'DELETE');
      assert.equal(
        response.headers.get('access-control-allow-headers'),
        'x-api-key, content-type, x-amp-client, x-amp-client-version, authorization',
      );
      assert.ok(Number(response.headers.get('access-control-max-age')) > 0);
    });

    it('answers preflights on the search host and the consent routes too', async () => {
      for (const url of [
        `${search}/projects/demo/integrations/int_demo?groupRef=acme`,
        `${new URL(base).origin}/consent/x`,
      ]) {
        const response = await fetch(url, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST' },
        });
        assert.equal(response.status, 204, url);
        assert.equal(response.headers.get('access-control-allow-origin'), '*', url);
      }
    });

    it('allows any origin on answers and on problems, and exposes x-request-id', async () => {
      const ok = await fetch(`${base}/projects/demo`, { headers: { origin, 'x-api-key': 'dev-api-key' } });
      const problem = await fetch(`${base}/projects/demo`, { headers: { origin } });
      assert.equal(ok.status, 200);
      assert.equal(problem.status, 401);
      for (const response of [ok, problem]) {
        assert.equal(response.headers.get('access-control-allow-origin'), '*');
        assert.match(response.headers.get('access-control-expose-headers')!, /x-request-id/);
      }
    });

    it('allows only the listed origins when restricted', async () => {
      const restricted = createEmulator({ corsOrigins: ['http://allowed.example'] });
      const info = await restricted.listen();
      try {
        const preflight = (from: string) =>
          fetch(`${info.baseUrl}/projects/demo`, {
            method: 'OPTIONS',
            headers: { origin: from, 'access-control-request-method': 'GET' },
          });
        const allowed = await preflight('http://allowed.example');
        assert.equal(allowed.status, 204);
        assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://allowed.example');
        assert.match(allowed.headers.get('vary')!, /Origin/);
        const refused = await preflight('http://other.example');
        assert.equal(refused.status, 403);
        assert.equal(refused.headers.get('access-control-allow-origin'), null);
        const answer = await fetch(`${info.baseUrl}/projects/demo`, {
          headers: { origin: 'http://other.example', 'x-api-key': 'dev-api-key' },
        });
        assert.equal(answer.headers.get('access-control-allow-origin'), null);
      } finally {
        await restricted.close();
      }
      assert.throws(() => createEmulator({ corsOrigins: ['http://x.example/path'] }), /not an origin/);
    });
  });

  describe('CORS preflights (opened to any origin)', () => {
    const origin = 'http://app.example:3000';
    const preflight = (headers: Record<string, string>, path = '/projects/demo') =>
      fetch(`${info.baseUrl}${path}`, { method: 'OPTIONS', headers: { origin, ...headers } });

    it('answers 204 with the method asked, a 600 s max-age, no-store and Vary on what it echoes', async () => {
      const response = await preflight({ 'access-control-request-method': 'PATCH' });
      assert.equal(response.status, 204);
      assert.equal(response.headers.get('access-control-allow-methods'), 'PATCH');
      assert.equal(response.headers.get('access-control-max-age'), '600');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('vary'), 'Access-Control-Request-Method, Access-Control-Request-Headers');
      assert.equal(response.headers.get('access-control-allow-headers'), null, 'no header asked, none allowed');
      assert.equal(response.headers.get('access-control-allow-private-network'), null);
      assert.ok(response.headers.get('x-request-id'));
    });

    it('allows the headers asked for, lower-cased, skipping empty entries of the list', async () => {
      const response = await preflight({
        'access-control-request-method': 'GET',
        'access-control-request-headers': ' X-Api-Key ,, Content-Type,',
      });
      assert.equal(response.status, 204);
      assert.equal(response.headers.get('access-control-allow-headers'), 'x-api-key, content-type');
    });

    it("grants Chromium's private-network access only when asked with true", async () => {
      const asked = await preflight({
        'access-control-request-method': 'GET',
        'access-control-request-private-network': 'true',
      });
      assert.equal(asked.headers.get('access-control-allow-private-network'), 'true');
      const notTrue = await preflight({
        'access-control-request-method': 'GET',
        'access-control-request-private-network': 'false',
      });
      assert.equal(notTrue.headers.get('access-control-allow-private-network'), null);
    });

    it('refuses with 400 a method or a header name that is not an HTTP token', async () => {
      const badMethod = await preflight({ 'access-control-request-method': 'GE T' });
      assert.equal(badMethod.status, 400);
      assert.equal(badMethod.headers.get('content-type'), 'application/problem+json');
      const badHeader = await preflight({
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key, bad(name)',
      });
      assert.equal(badHeader.status, 400);
      assert.equal(badHeader.headers.get('access-control-allow-headers'), null);
    });

    it('treats an OPTIONS without Origin or without a requested method as a plain request', async () => {
      for (const headers of [{ 'access-control-request-method': 'GET' }, { origin }] as Array<Record<string, string>>) {
        const response = await fetch(`${info.baseUrl}/projects/demo`, { method: 'OPTIONS', headers });
        assert.equal(response.status, 405, JSON.stringify(headers));
        assert.equal(response.headers.get('allow'), 'GET');
        assert.equal(response.headers.get('access-control-allow-methods'), null);
      }
    });

    it('answers a GET that carries preflight headers as a GET', async () => {
      const response = await fetch(`${info.baseUrl}/projects/demo`, {
        headers: { origin, 'access-control-request-method': 'GET', ...KEY },
      });
      assert.equal(response.status, 200);
      assert.equal((await response.json()).id, 'proj_demo');
      assert.equal(response.headers.get('access-control-allow-methods'), null);
    });

    it('exposes to scripts the headers a client reads, on every answer to a browser', async () => {
      const response = await fetch(`${info.baseUrl}/projects/demo`, { headers: { origin, ...KEY } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.equal(
        response.headers.get('access-control-expose-headers'),
        'x-request-id, location, retry-after, www-authenticate, allow',
      );
      assert.equal(response.headers.get('vary'), null, 'any origin: the answer does not vary by origin');
    });
  });
});

describe('emulator CORS narrowed to listed origins', () => {
  it('varies by Origin, and exposes nothing to an origin it does not allow', async () => {
    const narrowed = createEmulator({ corsOrigins: ['http://allowed.example/', 'https://b.example:8443'] });
    const at = await narrowed.listen();
    try {
      const get = (origin: string) => fetch(`${at.baseUrl}/projects/demo`, { headers: { origin, ...KEY } });
      const allowed = await get('http://allowed.example');
      assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://allowed.example', 'slash dropped');
      assert.equal(allowed.headers.get('vary'), 'Origin');
      assert.match(allowed.headers.get('access-control-expose-headers')!, /x-request-id/);
      assert.equal(
        (await get('https://b.example:8443')).headers.get('access-control-allow-origin'),
        'https://b.example:8443',
      );
      const other = await get('http://other.example');
      assert.equal(other.status, 200);
      assert.equal(other.headers.get('vary'), 'Origin');
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      assert.equal(other.headers.get('access-control-expose-headers'), null);
      const refused = await fetch(`${at.baseUrl}/projects/demo`, {
        method: 'OPTIONS',
        headers: { origin: 'http://other.example', 'access-control-request-method': 'GET' },
      });
      assert.equal(refused.status, 403);
      assert.equal(refused.headers.get('content-type'), 'application/problem+json');
      assert.equal(refused.headers.get('vary'), 'Origin');
    } finally {
      await narrowed.close();
    }
  });

  it("takes '*' in the list as any origin, and refuses what is not an origin", async () => {
    const any = createEmulator({ corsOrigins: ['http://a.example', '*'] });
    const at = await any.listen();
    try {
      const response = await fetch(`${at.baseUrl}/projects/demo`, {
        headers: { origin: 'http://z.example', ...KEY },
      });
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
    } finally {
      await any.close();
    }
    for (const origin of ['not a url', 'file:///tmp/x', 'http://a.example/path', 'http://a.example?q=1']) {
      assert.throws(
        () => createEmulator({ corsOrigins: [origin] }),
        { name: 'TypeError', message: /is not an origin/ },
        origin,
      );
    }
  });
});

describe('emulator CORS: refused preflights', () => {
  it('names the refused origin, the method or the header list in the problem', async () => {
    const narrowed = createEmulator({ corsOrigins: ['http://allowed.example'] });
    const at = await narrowed.listen();
    try {
      const preflight = (origin: string, headers: Record<string, string>) =>
        fetch(`${at.baseUrl}/projects/demo`, { method: 'OPTIONS', headers: { origin, ...headers } });
      const refused = await problemOf(
        await preflight('http://other.example', { 'access-control-request-method': 'GET' }),
        403,
      );
      assert.equal(refused.detail, 'the origin http://other.example may not call this emulator');
      const badMethod = await problemOf(
        await preflight('http://allowed.example', { 'access-control-request-method': 'GE T' }),
        400,
      );
      assert.equal(badMethod.detail, 'Access-Control-Request-Method is not a method name');
      const badHeader = await problemOf(
        await preflight('http://allowed.example', {
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key, bad(name)',
        }),
        400,
      );
      assert.equal(badHeader.detail, 'Access-Control-Request-Headers lists a name that is not a header name');
    } finally {
      await narrowed.close();
    }
  });
});
