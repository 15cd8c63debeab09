// Property-based: thousands of random requests against the handler, backed by
// the running emulator. Every answer is a correct 2xx or a well-formed
// problem+json 4xx; bad input never causes a 5xx; the API key never leaks.
// FC_SEED=n FC_RUNS=n replay or lengthen a run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { createConnectHandler, type ConnectHandler } from '../../src/server/index.js';

const API_KEY = 'prop-secret-key-Zq9';
const APP = 'http://app.test';
const RUNS = Number(process.env.FC_RUNS ?? 2000);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);

const token = fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/);
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);

const id = fc.oneof(fc.constantFrom('conn_demo', 'conn_nope', '', '%', '%E0%A4%A', '..', 'a%2Fb'), token, fc.string({ maxLength: 10 }).map(encodeURIComponent));
const path = fc
  .tuple(
    fc.array(token, { maxLength: 3 }),
    fc.oneof(
      fc.constant('oauth-connect'),
      id.map((i) => `connections/${i}`),
      id.map((i) => `connections/${i}:oauth-update`),
      token,
      fc.constant('connections/'),
    ),
    fc.constantFrom('', '/', '?x=1', '?includeCreds=true'),
  )
  .map(([prefix, route, tail]) => `/${[...prefix, route].join('/')}${tail}`.replace(/\/+/g, '/'));

const method = fc.oneof(fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'), fc.stringMatching(/^[A-Z]{1,8}$/));

const headers = fc.record(
  {
    cookie: fc.oneof(fc.constantFrom('sid=ada', 'sid=otto', 'sid=nobody', 'sid='), headerValue),
    origin: fc.oneof(fc.constantFrom(APP, 'https://evil.test', 'null', 'not a url'), headerValue),
    'sec-fetch-site': fc.oneof(fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none'), headerValue),
    'content-type': fc.oneof(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/problem+json'), headerValue),
    'x-forwarded-host': fc.oneof(fc.constant('app.test'), headerValue),
  },
  { requiredKeys: [] },
);

const goodHeaders = fc.record({
  cookie: fc.constantFrom('sid=ada', 'sid=ada', 'sid=otto', 'sid=nobody'),
  origin: fc.constantFrom(APP, APP, APP, 'https://evil.test'),
  'sec-fetch-site': fc.constantFrom('same-origin', 'same-origin', 'cross-site'),
  'content-type': fc.constantFrom('application/json', 'application/json', 'text/plain'),
});

const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.record(
    {
      provider: fc.oneof(fc.constantFrom('salesforce', 'hubspot', 'slack', 'myspace', ''), fc.string({ maxLength: 20 }), fc.integer()),
      groupRef: fc.string({ maxLength: 10 }),
      providerWorkspaceRef: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)),
      providerAppId: fc.oneof(fc.constantFrom('app_slack', 'app_nope'), fc.boolean()),
      providerMetadata: fc.oneof(fc.object({ maxDepth: 2 }), fc.string({ maxLength: 5 }), fc.constant([])),
    },
    { requiredKeys: [] },
  ).map((o) => JSON.stringify(o)),
  fc.string({ maxLength: 50 }),
  fc.constant(JSON.stringify({ provider: 'slack', providerMetadata: { pad: 'x'.repeat(20000) } })),
);

/** Half plausible requests (the right method, same-origin, signed in) with random parts, half anything. */
const plausible = fc
  .tuple(
    fc.oneof(
      fc.constant(['POST', '/api/connect/oauth-connect'] as const),
      id.map((i) => ['GET', `/api/connect/connections/${i}`] as const),
      fc.constantFrom('conn_demo', 'conn_nope').map((i) => ['PATCH', `/api/connect/connections/${i}:oauth-update`] as const),
    ),
    goodHeaders,
    body,
  )
  .map(([[m, p], h, b]) => [m, p, h, b] as const);
const request = fc.oneof(plausible, fc.tuple(method, path, headers, body));

describe('createConnectHandler under random requests', () => {
  let emulator: Emulator;
  let handler: ConnectHandler;

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    const { baseUrl } = await emulator.listen();
    handler = createConnectHandler({
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      authorize: (request) => {
        const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
        if (sid === 'ada') return { groupRef: 'acme', consumerRef: 'user-ada' };
        if (sid === 'otto') return { groupRef: 'other', consumerRef: 'user-otto' };
        return null;
      },
    });
  });
  after(() => emulator.close());

  it(`answers ${RUNS} random requests with a correct 2xx or a well-formed 4xx problem`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async ([m, p, h, b]) => {
        const init: RequestInit = { method: m, headers: h };
        if (b !== undefined && m !== 'GET' && m !== 'HEAD') init.body = String(b);
        const response = await handler(new Request(`${APP}${p}`, init));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const text = await response.text();
        const allHeaders = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
        assert.ok(!text.includes(API_KEY) && !allHeaders.includes(API_KEY), 'the API key leaked');
        assert.ok(response.status < 500, `${m} ${p} answered ${response.status}: ${text}`);
        if (response.status === 204) {
          assert.equal(m, 'OPTIONS');
          return;
        }
        if (response.status >= 200 && response.status < 300) {
          assert.equal(response.headers.get('content-type'), 'application/json');
          const answer = JSON.parse(text);
          if (m === 'GET') {
            // The list route answers an array, the connection route one connection.
            for (const connection of Array.isArray(answer) ? answer : [answer]) {
              assert.equal(typeof connection.id, 'string');
              assert.equal(connection.group.groupRef, 'acme', 'only the caller group\'s connection');
              assert.equal(connection.oauth2AuthorizationCode, undefined);
              assert.equal(connection.apiKey, undefined);
            }
          } else {
            assert.equal(typeof answer.url, 'string');
            assert.equal(typeof answer.messageOrigin, 'string');
          }
          return;
        }
        assert.ok(response.status >= 400, `unexpected status ${response.status}`);
        assert.equal(response.headers.get('content-type'), 'application/problem+json');
        const problem = JSON.parse(text);
        assert.equal(problem.status, response.status);
        assert.equal(typeof problem.title, 'string');
        assert.equal(typeof problem.type, 'string');
        assert.equal(typeof problem.detail, 'string');
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), verbose: 1 },
    );
    // The generators reach the interesting answers, not only early refusals.
    for (const status of [200, 400, 401, 403, 404, 405, 413, 415]) {
      assert.ok(statuses.has(status), `no request answered ${status}: ${JSON.stringify([...statuses])}`);
    }
  });
});
