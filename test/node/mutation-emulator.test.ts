// Rules of src/emulator that StrykerJS showed no test held (npm run mutate -- emulator):
// what a Bearer JWT must be to pass, the 401s and their WWW-Authenticate, the CORS
// preflight's headers and refusals, and the exact bounds on what a request may store.
// Each is checked over real HTTP against a real emulator, as a client or a browser sees it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createEmulator, type Emulator, type ListenInfo } from '../../src/emulator/index.js';
import { LIMITS } from '../../src/emulator/limits.js';

const SECRET = 'mutation-tests-secret-0123456789';
const KEY = { 'x-api-key': 'dev-api-key' };
const NOW = Date.parse('2026-06-01T12:00:00Z');

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT with the given header and claims, signed HS256 with `secret` (whatever its header says). */
function jwt(header: object, claims: object, secret = SECRET): string {
  const data = `${b64(header)}.${b64(claims)}`;
  return `${data}.${createHmac('sha256', secret).update(data).digest('base64url')}`;
}

const HS256 = { alg: 'HS256', typ: 'JWT' };
const iat = Math.floor(NOW / 1000);
const CLAIMS = { sub: 'dev-user', org: 'org_demo', iat, exp: iat + 3600 };

/** Nested objects {"a": {"a": ... {}}}, `depth` levels deep counting the outer one. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

const connectBody = (extra: Record<string, unknown> = {}) => ({
  projectId: 'demo',
  provider: 'slack',
  groupRef: 'g',
  consumerRef: 'c',
  ...extra,
});

describe('emulator rules held by mutation testing', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  before(async () => {
    // Open to any origin (the default key alone answers loopback origins only: emulator-cors-loopback.test.ts).
    emulator = createEmulator({ jwtSecret: SECRET, now: () => new Date(NOW), verifyDelay: 0, corsOrigins: '*' });
    info = await emulator.listen();
  });
  after(() => emulator.close());

  const invites = (authorization: string) =>
    fetch(`${info.baseUrl}/orgs/org_demo/invites`, { headers: { authorization } });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${info.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** Asserts a 401 problem (not a 500, not a success) with the invalid_token challenge. */
  async function assertInvalidToken(response: Response, why: string) {
    assert.equal(response.status, 401, why);
    assert.equal(response.headers.get('content-type'), 'application/problem+json', why);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer error="invalid_token"', why);
    const problem = await response.json();
    assert.equal(problem.status, 401, why);
  }

  describe('Bearer JWTs', () => {
    it('accepts a token signed with the secret, for an org and a user, until its exp', async () => {
      assert.equal((await invites(`Bearer ${jwt(HS256, CLAIMS)}`)).status, 200);
      assert.equal((await invites(`Bearer ${jwt(HS256, { ...CLAIMS, exp: iat + 1 })}`)).status, 200);
    });

    it('refuses a token whose exp is now: it expires at exp, not a second later', async () => {
      await assertInvalidToken(await invites(`Bearer ${jwt(HS256, { ...CLAIMS, exp: iat })}`), 'exp = now');
    });

    it('refuses a token whose exp is not a number, however far its date', async () => {
      await assertInvalidToken(
        await invites(`Bearer ${jwt(HS256, { ...CLAIMS, exp: String(iat + 3600) })}`),
        'exp as a string',
      );
    });

    it('refuses a token whose header names another algorithm, even with a valid HS256 signature', async () => {
      for (const alg of ['none', 'HS512', 'RS256']) {
        await assertInvalidToken(await invites(`Bearer ${jwt({ alg, typ: 'JWT' }, CLAIMS)}`), alg);
      }
    });

    it('refuses a validly signed token without an org or a sub claim', async () => {
      const { org: _org, ...noOrg } = CLAIMS;
      const { sub: _sub, ...noSub } = CLAIMS;
      await assertInvalidToken(await invites(`Bearer ${jwt(HS256, noOrg)}`), 'no org');
      await assertInvalidToken(await invites(`Bearer ${jwt(HS256, noSub)}`), 'no sub');
      await assertInvalidToken(await invites(`Bearer ${jwt(HS256, { ...CLAIMS, org: 7 })}`), 'org not a string');
    });

    it('answers 401, not 500, to tokens that are not three parts, not JSON, or cut short', async () => {
      const good = jwt(HS256, CLAIMS);
      const [header, payload, signature] = good.split('.');
      const notJson = `${header}.${Buffer.from('{"sub":').toString('base64url')}`;
      const signedNotJson = `${notJson}.${createHmac('sha256', SECRET).update(notJson).digest('base64url')}`;
      for (const [token, why] of [
        [`${header}.${payload}`, 'two parts'],
        [`${good}.extra`, 'four parts'],
        [signedNotJson, 'a payload that is not JSON'],
        [`${header}.${payload}.${signature.slice(0, -2)}`, 'a shorter signature'],
        [`${header}.${payload}.${signature}AA`, 'a longer signature'],
      ]) {
        await assertInvalidToken(await invites(`Bearer ${token}`), why);
      }
    });

    it('reads the scheme case-insensitively, after any run of spaces, and only at the start', async () => {
      const token = jwt(HS256, CLAIMS);
      assert.equal((await invites(`bearer ${token}`)).status, 200, 'lower case');
      assert.equal((await invites(`BEARER   ${token}`)).status, 200, 'several spaces');
      const notBearer = await invites(`XBearer ${token}`);
      assert.equal(notBearer.status, 401, 'a scheme that only ends in Bearer');
      assert.equal(notBearer.headers.get('www-authenticate'), 'Bearer');
      assert.equal((await invites(`Bearer ${token} trailing`)).status, 401, 'the whole rest is the token');
    });
  });

  describe('the tokens it issues', () => {
    it('are HS256 JWTs that stay valid thirty days, to the second', async () => {
      let now = NOW;
      const clocked = createEmulator({ jwtSecret: SECRET, now: () => new Date(now) });
      const at = await clocked.listen();
      try {
        const token = clocked.bearerToken;
        assert.deepEqual(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()), HS256);
        const call = () =>
          fetch(`${at.baseUrl}/orgs/org_demo/invites`, { headers: { authorization: `Bearer ${token}` } });
        now = NOW + 30 * 24 * 3600 * 1000 - 1000;
        assert.equal((await call()).status, 200, 'a second before thirty days');
        now += 1000;
        assert.equal((await call()).status, 401, 'at thirty days');
      } finally {
        await clocked.close();
      }
    });
  });

  describe('401 challenges', () => {
    it('asks for Bearer only where a Bearer JWT is accepted', async () => {
      const bearerToo = await fetch(`${info.baseUrl}/orgs/org_demo/invites`);
      assert.equal(bearerToo.status, 401);
      assert.equal(bearerToo.headers.get('www-authenticate'), 'Bearer');
      assert.match((await bearerToo.json()).detail, /Bearer/);
      const keyOnly = await fetch(`${info.baseUrl}/projects/demo/destinations`);
      assert.equal(keyOnly.status, 401);
      assert.equal(keyOnly.headers.get('www-authenticate'), null);
      assert.doesNotMatch((await keyOnly.json()).detail, /Bearer/);
    });

    it('judges the API key first: a wrong key is refused even beside a valid Bearer JWT', async () => {
      const response = await fetch(`${info.baseUrl}/orgs/org_demo/invites`, {
        headers: { 'x-api-key': 'wrong', authorization: `Bearer ${jwt(HS256, CLAIMS)}` },
      });
      assert.equal(response.status, 401);
      const right = await fetch(`${info.baseUrl}/orgs/org_demo/invites`, {
        headers: { ...KEY, authorization: 'Bearer not-a-jwt' },
      });
      assert.equal(right.status, 200, 'a right key is enough, whatever Authorization says');
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

  describe('CORS narrowed to listed origins', () => {
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

  describe('bounds on what a request may store', () => {
    it('takes a JSON body nested exactly as deep as the limit, and refuses one level more', async () => {
      const ok = await post('/oauth-connect', connectBody({ deep: nested(LIMITS.jsonDepth - 1) }));
      assert.equal(ok.status, 200);
      const deeper = await post('/oauth-connect', connectBody({ deep: nested(LIMITS.jsonDepth) }));
      assert.equal(deeper.status, 400);
      const problem = await deeper.json();
      assert.match(problem.detail, new RegExp(`deeper than ${LIMITS.jsonDepth}`));
    });

    it('takes each string field of oauth-connect at the length limit, and names the one over it', async () => {
      const fields = [
        'projectId',
        'provider',
        'groupRef',
        'consumerRef',
        'groupName',
        'consumerName',
        'providerWorkspaceRef',
        'providerAppId',
      ];
      for (const name of fields) {
        const over = await post('/oauth-connect', connectBody({ [name]: 'x'.repeat(LIMITS.refLength + 1) }));
        assert.equal(over.status, 400, name);
        const problem = await over.json();
        assert.deepEqual(
          problem.issues.map((i: { name: string; in: string }) => [i.in, i.name]),
          [['body', name]],
          name,
        );
        assert.match(problem.issues[0].detail, new RegExp(`longer than ${LIMITS.refLength}`), name);
      }
      const alias = await post('/oauth-connect', {
        ...connectBody({ projectId: undefined }),
        projectIdOrName: 'x'.repeat(LIMITS.refLength + 1),
      });
      assert.equal(alias.status, 400);
      const aliasIssues = (await alias.json()).issues.map((i: { name: string }) => i.name).sort();
      assert.deepEqual(aliasIssues, ['projectId', 'projectIdOrName']);
      const atLimit = await post(
        '/oauth-connect',
        connectBody({ groupRef: 'g'.repeat(LIMITS.refLength), groupName: 'n'.repeat(LIMITS.refLength) }),
      );
      assert.equal(atLimit.status, 200);
    });

    it('takes nulls anywhere in a JSON body', async () => {
      const response = await post(
        '/oauth-connect',
        connectBody({ providerMetadata: { note: null, list: [null, { a: null }] } }),
      );
      assert.equal(response.status, 200);
    });

    it('takes providerMetadata of exactly the byte limit as JSON, counting UTF-8 bytes', async () => {
      // {"blob":"…"} is 11 bytes around the string.
      const exact = await post(
        '/oauth-connect',
        connectBody({ providerMetadata: { blob: 'x'.repeat(LIMITS.metadataBytes - 11) } }),
      );
      assert.equal(exact.status, 200);
      const oneMore = await post(
        '/oauth-connect',
        connectBody({ providerMetadata: { blob: 'x'.repeat(LIMITS.metadataBytes - 10) } }),
      );
      assert.equal(oneMore.status, 400);
      const wide = await post(
        '/oauth-connect',
        connectBody({ providerMetadata: { blob: 'é'.repeat((LIMITS.metadataBytes - 10) / 2) } }),
      );
      assert.equal(wide.status, 400, 'two bytes per é: over the limit in bytes though not in characters');
      assert.deepEqual(
        (await wide.json()).issues.map((i: { in: string; name: string }) => [i.in, i.name]),
        [['body', 'providerMetadata']],
      );
      const deep = await post('/oauth-connect', connectBody({ providerMetadata: nested(LIMITS.metadataDepth + 1) }));
      assert.deepEqual(
        (await deep.json()).issues.map((i: { in: string; name: string }) => [i.in, i.name]),
        [['body', 'providerMetadata']],
      );
    });

    it('takes a search with exactly the most filters, and refuses one more', async () => {
      const search = (count: number) =>
        fetch(`${info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({
            objectName: 'contact',
            fieldFilters: Array.from({ length: count }, () => ({ fieldName: 'id', operator: 'eq', value: '101' })),
          }),
        });
      const most = await search(LIMITS.searchFilters);
      assert.equal(most.status, 200);
      assert.equal((await most.json()).result.length, 1);
      const over = await search(LIMITS.searchFilters + 1);
      assert.equal(over.status, 400);
      assert.deepEqual(
        (await over.json()).issues.map((i: { in: string; name: string }) => [i.in, i.name]),
        [['body', 'fieldFilters']],
      );
      const filters = Array.from({ length: LIMITS.searchFilters + 1 }, () => ({
        fieldName: 'id',
        operator: 'eq',
        value: '1',
      }));
      const notSearch = await post('/oauth-connect', connectBody({ fieldFilters: filters }));
      assert.equal(notSearch.status, 200, 'the bound is on searches, not on a field of that name elsewhere');
      const longRefElsewhere = await fetch(`${info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`, {
        method: 'POST',
        headers: { ...KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ objectName: 'contact', fieldFilters: [], groupRef: 'g'.repeat(LIMITS.refLength + 1) }),
      });
      assert.equal(longRefElsewhere.status, 200, "the length bound is oauth-connect's, not a search's");
    });
  });
});
