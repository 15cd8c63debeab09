// Rules of the emulator's access part (jwt, auth, cors, limits, consent) that StrykerJS
// showed no test held (npm run mutate -- emulator.access): the exact problem a client
// receives for each refusal (its status, title, detail and issues, since a client or a
// person reads them to know what to fix), the claims of the tokens the emulator issues,
// and which connection a consent creates, reuses or updates, with which provider app and
// which stored fields. Each is checked over real HTTP against a real emulator.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createEmulator, type Emulator, type ListenInfo } from '../../src/emulator/index.js';
import { createAuth } from '../../src/emulator/auth.js';
import { LIMITS } from '../../src/emulator/limits.js';
import type { OperationInfo } from '../../src/emulator/openapi.js';
import { HttpProblem } from '../../src/http/problem.js';
import { allow, decide } from './helpers/consent.js';

const SECRET = 'access-mutation-secret-0123456789';
const KEY = { 'x-api-key': 'dev-api-key' };
const START = Date.parse('2026-06-01T12:00:00Z');
const TEN_MINUTES = 10 * 60 * 1000;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const signed = (data: string) => `${data}.${createHmac('sha256', SECRET).update(data).digest('base64url')}`;
/** A JWT with the given header and claims, signed HS256 with SECRET whatever its header says. */
const jwt = (header: object, claims: object) => signed(`${b64(header)}.${b64(claims)}`);

const HS256 = { alg: 'HS256', typ: 'JWT' };
const iat = Math.floor(START / 1000);
const CLAIMS = { sub: 'dev-user', org: 'org_demo', iat, exp: iat + 3600 };

/** Nested objects {"a": {"a": ... {}}}, `depth` levels deep counting the outer one. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

/** The problem a client reads: asserts problem+json and the status, returns the body. */
async function problemOf(response: Response, status: number, why = ''): Promise<Record<string, unknown>> {
  assert.equal(response.status, status, why);
  assert.equal(response.headers.get('content-type'), 'application/problem+json', why);
  const problem = await response.json();
  assert.equal(problem.status, status, why);
  return problem;
}

describe('emulator access rules held by mutation testing', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  let t = START;
  before(async () => {
    emulator = createEmulator({ jwtSecret: SECRET, verifyDelay: 0, now: () => new Date(t) });
    info = await emulator.listen();
  });
  after(() => emulator.close());

  const api = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${info.baseUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...KEY,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  const invites = (authorization: string) =>
    fetch(`${info.baseUrl}/orgs/org_demo/invites`, { headers: { authorization } });

  async function connect(body: Record<string, unknown>, base = info.baseUrl): Promise<string> {
    const response = await fetch(`${base}/oauth-connect`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: 'demo', provider: 'slack', consumerRef: 'c', ...body }),
    });
    assert.equal(response.status, 200, JSON.stringify(body));
    return response.json();
  }

  async function newProject(name: string): Promise<string> {
    const created = await api('/projects', { body: { appName: `App ${name}`, name, orgId: 'org_demo' } });
    assert.equal(created.status, 201);
    return (await created.json()).id;
  }

  describe('jwt.ts: why a Bearer token is refused', () => {
    it('tells the client what is wrong with the token, in the detail of a 401', async () => {
      const good = jwt(HS256, CLAIMS);
      const [header, payload, signature] = good.split('.');
      const { org: _org, ...noOrg } = CLAIMS;
      const cases: Array<[string, string, string]> = [
        [`${header}.${payload}`, 'two parts', 'the Bearer token is not a JWT'],
        [
          signed(`${header}.${Buffer.from('{"sub":').toString('base64url')}`),
          'claims not JSON',
          'the Bearer token is not a JWT',
        ],
        [jwt({ alg: 'HS512', typ: 'JWT' }, CLAIMS), 'another algorithm', 'the Bearer token is not signed with HS256'],
        [
          `${header}.${payload}.${signature.slice(0, -1)}x`,
          'a wrong signature',
          'the Bearer token signature is not valid',
        ],
        [jwt(HS256, { ...CLAIMS, exp: iat }), 'exp now', 'the Bearer token has expired'],
        [jwt(HS256, noOrg), 'no org claim', 'the Bearer token lacks the org or sub claim'],
      ];
      for (const [token, why, detail] of cases) {
        const response = await invites(`Bearer ${token}`);
        assert.equal(response.headers.get('www-authenticate'), 'Bearer error="invalid_token"', why);
        const problem = await problemOf(response, 401, why);
        assert.equal(problem.title, 'Unauthorized', why);
        assert.equal(problem.detail, detail, why);
      }
    });
  });

  describe('jwt.ts: a header or claims that are no JSON object (issue #23)', () => {
    // JSON.parse accepts any JSON value: null once reached `.alg` and `.exp` and answered 500.
    const NOT_OBJECTS: Array<[string, unknown]> = [
      ['null', null],
      ['a number', 5],
      ['an array', [CLAIMS]],
      ['a string', 'HS256'],
      ['true', true],
    ];

    it('refuses with a 401 "not a JWT", never a 500, signed or not', async () => {
      const rawJwt = (header: string, claims: string) => signed(`${header}.${claims}`);
      for (const [what, value] of NOT_OBJECTS) {
        const cases: Array<[string, string]> = [
          [rawJwt(b64(value), b64(CLAIMS)), `header ${what}, signed`],
          [`${b64(value)}.${b64(CLAIMS)}.x`, `header ${what}, unsigned`],
          [rawJwt(b64(HS256), b64(value)), `claims ${what}, signed`],
          [rawJwt(b64(value), b64(value)), `both ${what}`],
        ];
        for (const [token, why] of cases) {
          const response = await invites(`Bearer ${token}`);
          const problem = await problemOf(response, 401, why);
          assert.equal(problem.detail, 'the Bearer token is not a JWT', why);
          assert.equal(response.headers.get('www-authenticate'), 'Bearer error="invalid_token"', why);
        }
      }
    });
  });

  describe('auth.ts: credentials', () => {
    it('issues tokens for dev-user of org_demo by default, and for the sub and org asked', () => {
      const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
      assert.deepEqual(claimsOf(emulator.issueToken()), {
        sub: 'dev-user',
        org: 'org_demo',
        iat,
        exp: iat + 30 * 24 * 3600,
      });
      assert.equal(claimsOf(emulator.bearerToken).sub, 'dev-user');
      assert.deepEqual(claimsOf(emulator.issueToken({ sub: 'ann', org: 'org_x', expiresInSeconds: 60 })), {
        sub: 'ann',
        org: 'org_x',
        iat,
        exp: iat + 60,
      });
    });

    it('says in each 401 what to send instead', async () => {
      const wrongKey = await problemOf(await api('/projects/demo', { headers: { 'x-api-key': 'nope' } }), 401);
      assert.equal(wrongKey.detail, 'the X-Api-Key header does not carry a valid API key');
      const keyOnly = await problemOf(await fetch(`${info.baseUrl}/projects/demo/destinations`), 401, 'no credentials');
      assert.equal(keyOnly.detail, 'send an API key in X-Api-Key');
      const either = await problemOf(await fetch(`${info.baseUrl}/orgs/org_demo/invites`), 401, 'no credentials');
      assert.equal(either.detail, 'send an API key in X-Api-Key or a Bearer JWT in Authorization');
      const bearerOnKeyOnly = await fetch(`${info.baseUrl}/projects/demo/destinations`, {
        headers: { authorization: `Bearer ${emulator.bearerToken}` },
      });
      assert.equal(
        (await problemOf(bearerOnKeyOnly, 401)).detail,
        'listDestinations accepts only an API key in X-Api-Key, not a Bearer token',
      );
    });

    it('reads the token without the whitespace around it, a no-break space included', async () => {
      // HTTP strips spaces and tabs around a header value itself; U+00A0 is a byte it keeps.
      assert.equal((await invites(`Bearer ${jwt(HS256, CLAIMS)}\u00a0`)).status, 200);
      assert.equal((await invites(`Bearer \u00a0${jwt(HS256, CLAIMS)}`)).status, 200);
    });
  });

  describe('cors.ts: refused preflights', () => {
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

  describe('limits.ts: what a request may store', () => {
    const connectBody = (extra: Record<string, unknown>) => ({
      projectId: 'demo',
      provider: 'slack',
      groupRef: 'g',
      consumerRef: 'c',
      ...extra,
    });

    it('names the bound a providerMetadata or a search passes, in the detail and the issue', async () => {
      const cases: Array<[string, Promise<Response>, string, string]> = [
        [
          'metadata too deep',
          api('/oauth-connect', { body: connectBody({ providerMetadata: nested(LIMITS.metadataDepth + 1) }) }),
          'providerMetadata',
          'providerMetadata is nested deeper than 8 levels',
        ],
        [
          'metadata too large',
          api('/oauth-connect', {
            body: connectBody({ providerMetadata: { blob: 'x'.repeat(LIMITS.metadataBytes) } }),
          }),
          'providerMetadata',
          'providerMetadata is larger than 4096 bytes as JSON',
        ],
        [
          'too many filters',
          fetch(`${info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`, {
            method: 'POST',
            headers: { ...KEY, 'content-type': 'application/json' },
            body: JSON.stringify({
              objectName: 'contact',
              fieldFilters: Array.from({ length: LIMITS.searchFilters + 1 }, () => ({
                fieldName: 'id',
                operator: 'eq',
                value: '1',
              })),
            }),
          }),
          'fieldFilters',
          'fieldFilters has more than 64 filters',
        ],
      ];
      for (const [why, response, name, detail] of cases) {
        const problem = await problemOf(await response, 400, why);
        assert.equal(problem.type, 'urn:connect-provider:problem:validation', why);
        assert.equal(problem.title, 'Invalid request', why);
        assert.equal(problem.detail, detail, why);
        assert.deepEqual(problem.issues, [{ detail, in: 'body', name }], why);
      }
    });
  });

  describe('consent.ts: the consent pages answer', () => {
    it('refuses other methods with 405 naming the allowed ones', async () => {
      const url = await connect({ groupRef: 'methods' });
      const put = await problemOf(await fetch(url, { method: 'PUT' }), 405);
      assert.equal(put.detail, 'PUT is not allowed here; allowed: GET, POST');
      const callback = await problemOf(await fetch(`${info.url}/oauth/callback?session=x`, { method: 'POST' }), 405);
      assert.equal(callback.detail, 'POST is not allowed here; allowed: GET');
    });

    it('refuses a form of another type (415) and an unknown decision (400) saying what it takes', async () => {
      const url = await connect({ groupRef: 'form' });
      const json = await problemOf(await decide(url, 'allow', 'application/json'), 415);
      assert.equal(json.detail, 'the consent form posts application/x-www-form-urlencoded');
      const unknown = await problemOf(await decide(url, 'maybe'), 400);
      assert.equal(unknown.type, 'urn:connect-provider:problem:validation');
      assert.equal(unknown.title, 'Invalid request');
      assert.equal(unknown.detail, 'decision must be allow, allow_bad_credentials or deny');
      assert.deepEqual(unknown.issues, [
        { detail: 'must be allow, allow_bad_credentials or deny', in: 'body', name: 'decision', value: 'maybe' },
      ]);
    });

    it('answers a callback before the decision, and a second decision, with 409 saying why', async () => {
      const url = await connect({ groupRef: 'twice' });
      const id = new URL(url).pathname.split('/').pop()!;
      const early = await problemOf(await fetch(`${info.url}/oauth/callback?session=${id}`), 409);
      assert.equal(early.title, 'Not decided');
      assert.equal(early.detail, 'this authorization has not been answered yet');
      assert.equal((await decide(url, 'deny')).status, 303);
      const again = await problemOf(await decide(url, 'allow'), 409);
      assert.equal(again.title, 'Already decided');
      assert.equal(again.detail, 'this authorization was already answered');
    });

    it('answers an expired link with 410 telling the user to start again', async () => {
      const url = await connect({ groupRef: 'expired' });
      t += TEN_MINUTES;
      try {
        const gone = await problemOf(await fetch(url), 410);
        assert.equal(gone.title, 'Authorization expired');
        assert.equal(gone.detail, 'this authorization link has expired; start again from the app');
      } finally {
        t -= TEN_MINUTES;
      }
    });

    it('answers 404 naming the connection when it was deleted before the user allowed its update', async () => {
      const id = await allow(await connect({ groupRef: 'deleted' }));
      const url = await (await api(`/projects/demo/connections/${id}:oauth-update`, { method: 'PATCH' })).json();
      assert.equal((await api(`/projects/demo/connections/${id}`, { method: 'DELETE' })).status, 204);
      const problem = await problemOf(await decide(url, 'allow'), 404);
      assert.equal(problem.detail, `connection ${id} no longer exists`);
    });

    it('answers 429 with Retry-After past the total of pending links, saying to try later', async () => {
      const fresh = createEmulator({ now: () => new Date(START) });
      const at = await fresh.listen();
      try {
        for (let i = 0; i < LIMITS.consents; i++) {
          fresh.state.consents.push({
            id: `consent_fill_${i}`,
            mode: 'create',
            projectId: 'proj_demo',
            provider: 'slack',
            groupRef: `fill-${i}`,
            groupName: 'g',
            consumerRef: 'c',
            consumerName: 'c',
            createTime: new Date(START).toISOString(),
            expiresAt: new Date(START + 60_000).toISOString(),
          });
        }
        const refused = await fetch(`${at.baseUrl}/oauth-connect`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ projectId: 'demo', provider: 'slack', groupRef: 'one-more', consumerRef: 'c' }),
        });
        assert.equal(refused.headers.get('retry-after'), '60');
        const problem = await problemOf(refused, 429);
        assert.equal(problem.detail, 'too many pending authorizations; try again later');
      } finally {
        await fresh.close();
      }
    });
  });

  describe('consent.ts: which connection a consent makes', () => {
    it('creates a connection with a conn_ ID', async () => {
      const id = await allow(await connect({ groupRef: 'new-id' }));
      assert.match(id, /^conn_[0-9a-f]{12}$/);
      assert.equal((await api(`/projects/demo/connections/${id}`)).status, 200);
    });

    it("never reuses another project's connection for the same provider and group", async () => {
      const other = await newProject('access-other');
      const mine = await allow(await connect({ groupRef: 'shared-group' }));
      const theirs = await allow(await connect({ projectId: other, groupRef: 'shared-group' }));
      assert.notEqual(theirs, mine);
      assert.equal((await api(`/projects/${other}/connections/${theirs}`)).status, 200);
      assert.equal((await api(`/projects/demo/connections/${theirs}`)).status, 404);
    });

    it("gives a connection its own project's provider app, and none when that project has none", async () => {
      const bare = await newProject('access-no-apps');
      assert.deepEqual(await (await api(`/projects/${bare}/provider-apps`)).json(), []);
      const id = await allow(await connect({ projectId: bare, groupRef: 'no-app' }));
      const connection = await (await api(`/projects/${bare}/connections/${id}`)).json();
      assert.equal(connection.providerApp, undefined);
      const inDemo = await allow(await connect({ groupRef: 'demo-app' }));
      const withApp = await (await api(`/projects/demo/connections/${inDemo}`)).json();
      assert.equal(withApp.providerApp.provider, 'slack');
      assert.equal(withApp.providerApp.projectId, 'proj_demo');
    });

    it('updates the very connection an oauth-update link names, wherever it is in the list', async () => {
      const id = await allow(await connect({ provider: 'notion', groupRef: 'update-me' }));
      const url = await (await api(`/projects/demo/connections/${id}:oauth-update`, { method: 'PATCH' })).json();
      t += 1000;
      try {
        assert.equal(await allow(url), id);
        const connection = await (await api(`/projects/demo/connections/${id}`)).json();
        assert.equal(connection.updateTime, new Date(t).toISOString());
        const seeded = await (await api('/projects/demo/connections/conn_demo')).json();
        assert.notEqual(seeded.updateTime, new Date(t).toISOString(), 'the first connection is left alone');
      } finally {
        t -= 1000;
      }
    });

    it('keeps the workspace and metadata of a connection when a later consent carries none', async () => {
      const id = await allow(
        await connect({
          // Slack needs no workspace (Zendesk does, so a later oauth-connect of its could not carry none).
          provider: 'slack',
          groupRef: 'keep',
          providerWorkspaceRef: 'acme-desk',
          providerMetadata: { region: 'eu' },
        }),
      );
      const url = await (await api(`/projects/demo/connections/${id}:oauth-update`, { method: 'PATCH' })).json();
      assert.equal(await allow(url), id);
      assert.equal(await allow(await connect({ provider: 'slack', groupRef: 'keep' })), id);
      const connection = await (await api(`/projects/demo/connections/${id}`)).json();
      assert.equal(connection.providerWorkspaceRef, 'acme-desk');
      assert.deepEqual(connection.providerMetadata, { region: 'eu' });
    });

    it('at the connection cap, refuses with 429 a consent for a new group or in another project', async () => {
      const fresh = createEmulator({ verifyDelay: 0 });
      const at = await fresh.listen();
      try {
        const other = await fetch(`${at.baseUrl}/projects`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ appName: 'Other', name: 'cap-other', orgId: 'org_demo' }),
        });
        assert.equal(other.status, 201);
        // conn_demo is demo's hubspot connection of group acme.
        const newGroup = await connect({ provider: 'hubspot', groupRef: 'new-group' }, at.baseUrl);
        const otherProject = await connect(
          { projectId: 'cap-other', provider: 'hubspot', groupRef: 'acme' },
          at.baseUrl,
        );
        const sameGroup = await connect({ provider: 'hubspot', groupRef: 'acme' }, at.baseUrl);
        const seed = fresh.state.connections[0];
        while (fresh.state.connections.length < LIMITS.connections) {
          fresh.state.connections.push({
            ...seed,
            id: `conn_fill_${fresh.state.connections.length}`,
            provider: 'slack',
            group: { ...seed.group, groupRef: 'fill' },
          });
        }
        for (const [url, why] of [
          [newGroup, 'a new group'],
          [otherProject, 'the same group in another project'],
        ]) {
          const problem = await problemOf(await decide(url, 'allow'), 429, why);
          assert.equal(problem.detail, 'the emulator holds 5000 connections, its most; delete some first', why);
        }
        assert.equal(fresh.state.connections.length, LIMITS.connections);
        assert.equal((await decide(sameGroup, 'allow')).status, 303, 'an existing group: no new connection');
      } finally {
        await fresh.close();
      }
    });
  });
});

// No operation of openapi.yaml takes only a Bearer JWT today, so no request reaches this rule through the emulator;
// it is checked at its own boundary, authenticate(), with such an operation described by hand.
describe('an operation that takes only a Bearer JWT (src/emulator/auth.ts)', () => {
  const auth = createAuth({ apiKey: 'dev-api-key', secret: SECRET, now: () => new Date(START) });
  const bearerOnly = { operationId: 'bearerOnlyOperation', apiKey: false, bearer: true } as OperationInfo;

  it('refuses an API key, valid or not, with a 401 naming the operation', () => {
    for (const key of ['dev-api-key', 'wrong']) {
      assert.throws(
        () =>
          auth.authenticate(new Request('http://emulator.test/v1/x', { headers: { 'x-api-key': key } }), bearerOnly),
        (error: unknown) => {
          assert.ok(error instanceof HttpProblem);
          assert.deepEqual(error.init, {
            status: 401,
            detail: 'bearerOnlyOperation accepts only a Bearer JWT, not an API key',
          });
          return true;
        },
      );
    }
  });

  it('takes a Bearer JWT', () => {
    const request = new Request('http://emulator.test/v1/x', {
      headers: { authorization: `Bearer ${jwt(HS256, CLAIMS)}` },
    });
    assert.equal(auth.authenticate(request, bearerOnly).kind, 'bearer');
  });
});
