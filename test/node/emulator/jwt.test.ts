// Bearer JWTs: what a token must be to pass (HS256 with the emulator's secret, an org and a sub, before its exp),
// what each refusal says, and the tokens the emulator issues and signs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator, type ListenInfo } from '../../../src/emulator/index.js';
import { signJwt } from '../../../src/emulator/jwt.js';
import { problemOf, withEmulator } from '../helpers/emulator.js';
import { b64, CLAIMS, HS256, iat, jwt, NOW, SECRET, signed } from '../helpers/jwt.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-jwt-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('emulator Bearer JWTs', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  before(async () => {
    emulator = createEmulator({ jwtSecret: SECRET, now: () => new Date(NOW), verifyDelay: 0 });
    info = await emulator.listen();
  });
  after(() => emulator.close());

  const invites = (authorization: string) =>
    fetch(`${info.baseUrl}/orgs/org_demo/invites`, { headers: { authorization } });

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

  describe('jwt.ts: a header or claims that are no JSON object', () => {
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

  describe('Bearer tokens', () => {
    it('are not signed with anything derived from the API key', async () => {
      await withEmulator({}, async (e) => {
        const derived = createHash('sha256').update('connect-provider-emulator:dev-api-key').digest('hex');
        const iat = Math.floor(Date.now() / 1000);
        const minted = signJwt({ sub: 'evil', org: 'org_demo', iat, exp: iat + 3600 }, derived);
        const response = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
          headers: { authorization: `Bearer ${minted}` },
        });
        assert.equal(response.status, 401);
        const own = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
          headers: { authorization: `Bearer ${e.emulator.bearerToken}` },
        });
        assert.equal(own.status, 200);
      });
    });

    it('use a random secret kept in the data file, so tokens survive a restart and differ between files', async () => {
      const file = join(dir, 'secret.json');
      let token: string;
      {
        await withEmulator({ dataFile: file }, async (e) => {
          token = e.emulator.bearerToken;
        });
      }
      const secret = JSON.parse(readFileSync(file, 'utf8')).tokenSecret;
      assert.ok(typeof secret === 'string' && secret.length >= 32);
      {
        await withEmulator({ dataFile: file }, async (e) => {
          const response = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
            headers: { authorization: `Bearer ${token}` },
          });
          assert.equal(response.status, 200, 'the token issued before the restart is still valid');
        });
      }
      {
        await withEmulator({ dataFile: join(dir, 'secret-2.json') }, async (e) => {
          const response = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
            headers: { authorization: `Bearer ${token}` },
          });
          assert.equal(response.status, 401, "another data file's emulator refuses it");
        });
      }
      {
        const a = createEmulator({ jwtSecret: 'a-secret-given-by-flag' });
        await withEmulator({ jwtSecret: 'a-secret-given-by-flag' }, async (e) => {
          const response = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
            headers: { authorization: `Bearer ${a.bearerToken}` },
          });
          assert.equal(response.status, 200, 'a secret given as an option signs and checks');
        });
      }
    });
  });
});
