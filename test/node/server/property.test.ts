// Property-based: thousands of random requests against the handler, backed by
// the running emulator, then thousands of random platform answers from a
// platform double. Every answer is a correct 2xx or a well-formed problem+json;
// bad input never causes a 5xx; only the caller group's connections are
// answered, whichever group calls; neither the API key, the platform's address,
// a credential nor a stack reaches the browser. FC_SEED=n FC_RUNS=n replay or
// lengthen a run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { createConnectHandler, type ConnectHandler } from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';

const API_KEY = 'prop-secret-key-Zq9';
const APP = 'http://app.test';
const RUNS = Number(process.env.FC_RUNS ?? 2000);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);

const token = fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/);
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);

/** The signed-in callers: session ID = their group; `nobody` has no session. */
const GROUPS = ['acme', 'other', 'zeta'] as const;
const groupOf = (cookie: string | undefined) => (GROUPS as readonly string[]).find((g) => cookie === `sid=${g}`);
/** The IDs of the connections made in before(), one per group and provider, plus the seed's conn_demo (acme). */
const connectionIds: string[] = ['conn_demo'];
const groupOfConnection = new Map<string, string>([['conn_demo', 'acme']]);
const knownId = fc.integer({ min: 0, max: 1000 }).map((i) => connectionIds[i % connectionIds.length]);

const id = fc.oneof(
  knownId,
  fc.constantFrom('conn_nope', '', '%', '%E0%A4%A', '..', 'a%2Fb'),
  token,
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
);
const path = fc
  .tuple(
    fc.array(token, { maxLength: 3 }),
    fc.oneof(
      fc.constant('oauth-connect'),
      id.map((i) => `connections/${i}`),
      id.map((i) => `connections/${i}:oauth-update`),
      token,
      fc.constant('connections/'),
      fc.constantFrom(
        'connections',
        'connections?provider=slack',
        'connections?provider=',
        'connections?provider=hubspot&provider=x',
      ),
    ),
    fc.constantFrom('', '/', '?x=1', '?includeCreds=true'),
  )
  .map(([prefix, route, tail]) => `/${[...prefix, route].join('/')}${tail}`.replace(/\/+/g, '/'));

const method = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'),
  fc.stringMatching(/^[A-Z]{1,8}$/),
);

const headers = fc.record(
  {
    cookie: fc.oneof(fc.constantFrom(...GROUPS.map((g) => `sid=${g}`), 'sid=nobody', 'sid='), headerValue),
    origin: fc.oneof(fc.constantFrom(APP, 'https://evil.test', 'null', 'not a url'), headerValue),
    'sec-fetch-site': fc.oneof(fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none'), headerValue),
    'content-type': fc.oneof(
      fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/problem+json'),
      headerValue,
    ),
    'x-forwarded-host': fc.oneof(fc.constant('app.test'), headerValue),
  },
  { requiredKeys: [] },
);

const goodHeaders = fc.record({
  cookie: fc.constantFrom(...GROUPS.map((g) => `sid=${g}`), 'sid=nobody'),
  origin: fc.constantFrom(APP, APP, APP, 'https://evil.test'),
  'sec-fetch-site': fc.constantFrom('same-origin', 'same-origin', 'cross-site'),
  'content-type': fc.constantFrom('application/json', 'application/json', 'text/plain'),
});

const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc
    .record(
      {
        provider: fc.oneof(
          fc.constantFrom('salesforce', 'hubspot', 'slack', 'myspace', ''),
          fc.string({ maxLength: 20 }),
          fc.integer(),
        ),
        groupRef: fc.string({ maxLength: 10 }),
        providerWorkspaceRef: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)),
        providerAppId: fc.oneof(fc.constantFrom('app_slack', 'app_nope'), fc.boolean()),
        providerMetadata: fc.oneof(fc.object({ maxDepth: 2 }), fc.string({ maxLength: 5 }), fc.constant([])),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc.string({ maxLength: 50 }),
  fc.constant(JSON.stringify({ provider: 'slack', providerMetadata: { pad: 'x'.repeat(20000) } })),
);

/** Half plausible requests (the right method, same-origin, signed in) with random parts, half anything. */
const plausible = fc
  .tuple(
    fc.oneof(
      fc.constant(['POST', '/api/connect/oauth-connect'] as const),
      id.map((i) => ['GET', `/api/connect/connections/${i}`] as const),
      fc
        .oneof(knownId, fc.constant('conn_nope'))
        .map((i) => ['PATCH', `/api/connect/connections/${i}:oauth-update`] as const),
      fc
        .constantFrom('', '?provider=slack', '?provider=hubspot', '?provider=notion')
        .map((q) => ['GET', `/api/connect/connections${q}`] as const),
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
        const group = groupOf(request.headers.get('cookie') ?? undefined);
        return group ? { groupRef: group, consumerRef: `user-of-${group}` } : null;
      },
    });
    // Each group gets connections of its own, through the emulator's consent page, so a request may name any group's.
    for (const group of GROUPS) {
      for (const provider of ['slack', 'notion']) {
        const response = await handler(
          new Request(`${APP}/api/connect/oauth-connect`, {
            method: 'POST',
            headers: { cookie: `sid=${group}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
            body: JSON.stringify({ provider }),
          }),
        );
        const { url } = await response.json();
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'decision=allow',
          redirect: 'manual',
        });
        const made = emulator.state.consents.find((c) => url.endsWith(c.id))!.resultConnectionId!;
        connectionIds.push(made);
        groupOfConnection.set(made, group);
      }
    }
    assert.equal(new Set(connectionIds).size, 1 + GROUPS.length * 2);
  });
  after(() => emulator.close());

  it(`answers ${RUNS} random requests with a correct 2xx or a well-formed 4xx problem`, async () => {
    const statuses = new Map<number, number>();
    let otherGroups = 0;
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
            const caller = groupOf(h.cookie);
            assert.ok(caller, 'a 200 only for a signed-in caller');
            for (const connection of Array.isArray(answer) ? answer : [answer]) {
              assert.equal(typeof connection.id, 'string');
              assert.equal(connection.group.groupRef, caller, "only the caller group's connection");
              assert.equal(connection.oauth2AuthorizationCode, undefined);
              assert.equal(connection.apiKey, undefined);
            }
          } else {
            assert.equal(typeof answer.url, 'string');
            assert.equal(typeof answer.messageOrigin, 'string');
            const updated = /\/connections\/([^/]+):oauth-update/.exec(p)?.[1];
            if (updated !== undefined) {
              assert.equal(
                groupOfConnection.get(decodeURIComponent(updated)),
                groupOf(h.cookie),
                "only the caller group's connection is re-authorized",
              );
            }
          }
          return;
        }
        const named = /\/connections\/([^/?]+?)(?::oauth-update)?\/?(?:\?|$)/.exec(p)?.[1];
        const owner = named === undefined ? undefined : groupOfConnection.get(named);
        if (owner && groupOf(h.cookie) && owner !== groupOf(h.cookie)) otherGroups++;
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
    assert.ok(otherGroups >= RUNS / 50, `only ${otherGroups} requests named another group's connection`);
    for (const status of [200, 400, 401, 403, 404, 405, 413, 415]) {
      assert.ok(statuses.has(status), `no request answered ${status}: ${JSON.stringify([...statuses])}`);
    }
  });
});

// ---------------------------------------------------------------- platform answers
// The platform (or whatever answers in its place) is generated too: URLs of every
// scheme, problems carrying the key and the platform's address in every field,
// connections with credentials under every name and groups of every shape.

const KEY = 'pK-7sQwe9LmNoRtUvXyZ-platform';
const MARK = 'LEAKMARK';

/** Every form of the key the handler must hide: any 12 consecutive characters, in any case; base64 at each alignment; hex. */
function keyLeaks(text: string): string | undefined {
  const lower = text.toLowerCase();
  for (let i = 0; i + 12 <= KEY.length; i++)
    if (lower.includes(KEY.slice(i, i + 12).toLowerCase())) return `key run ${KEY.slice(i, i + 12)}`;
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad), Buffer.from(KEY)]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * pad) / 6), Math.ceil((8 * pad) / 6) + 12);
    for (const form of [core, core.replace(/\+/g, '-').replace(/\//g, '_')])
      if (text.includes(form)) return `base64 key ${form}`;
  }
  const hex = Buffer.from(KEY).toString('hex');
  for (let i = 0; i + 16 <= hex.length; i += 2) if (lower.includes(hex.slice(i, i + 16))) return 'hex key';
  return undefined;
}

const filler = fc.constantFrom(
  '',
  'invalid',
  'see',
  'request failed:',
  'the key',
  'at',
  'port',
  'Bearer',
  '→',
  '(',
  ')',
  '"',
);

/** Text that hides the key, the platform's address or a stack somewhere inside. */
function secretText(platformUrl: string) {
  const url = new URL(platformUrl);
  const secret = fc.oneof(
    fc.constantFrom(KEY, KEY.toUpperCase(), KEY.toLowerCase(), encodeURIComponent(KEY), `x-api-key: ${KEY}`),
    fc
      .tuple(fc.string({ maxLength: 2 }), fc.string({ maxLength: 2 }))
      .map(([a, b]) => Buffer.from(`${a}${KEY}${b}`).toString('base64')),
    fc
      .tuple(fc.string({ maxLength: 2 }), fc.string({ maxLength: 2 }))
      .map(([a, b]) => Buffer.from(`${a}${KEY}${b}`).toString('base64url')),
    fc.constant(Buffer.from(KEY).toString('hex')),
    fc.constant(Buffer.from(KEY).toString('hex').toUpperCase()),
    fc
      .constantFrom('http', 'https', 'HTTP', 'Https', 'ws', 'ftp', '')
      .map((scheme) => `${scheme ? `${scheme}://` : ''}${url.host}/v1/projects/demo`),
    fc.constantFrom(
      url.host,
      url.host.toUpperCase(),
      `${url.hostname} port ${url.port}`,
      encodeURIComponent(url.origin),
      `[${url.hostname}]:${url.port}`,
    ),
    fc.constant(
      `Error: boom\n    at handler (/srv/platform/src/routes.ts:41:13)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`,
    ),
  );
  return fc.array(fc.oneof(filler, secret), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(' '));
}

/** A value under a name that is not allow-listed: it must never reach the browser. */
const marked = fc.oneof(
  fc.constant(MARK),
  fc.constant({ token: MARK, expiresAt: '2030-01-01T00:00:00Z' }),
  fc.constant([MARK]),
  fc.constant({ accessToken: { token: MARK }, refreshToken: { token: `${MARK}-refresh` } }),
);
const secretFieldNames = fc.constantFrom(
  'oauth2AuthorizationCode',
  'apiKey',
  'basic',
  'oauth2ClientCredentials',
  'oauth2Password',
  'credentials',
  'token',
  'accessToken',
  'refreshToken',
  'clientSecret',
  'password',
  'secret',
  'providerMetadata',
  'futureField',
  '__proto__',
);
const secretFields = fc.dictionary(secretFieldNames, marked, { maxKeys: 5 });

const groupShapes = (caller: string) =>
  fc.oneof(
    fc.constant({ groupRef: caller, groupName: 'G', projectId: 'p', createTime: '2026-01-01T00:00:00Z' }),
    fc.constantFrom(undefined, null, 'acme', 7, [], { groupName: caller }, { groupRef: null }, { groupRef: [caller] }),
    fc.constantFrom(...GROUPS).map((g) => ({ groupRef: g })),
    fc.constant({ groupRef: caller.toUpperCase() }),
    fc.constant({ groupRef: `${caller} ` }),
    secretFields.map((extra) => ({ groupRef: caller, ...extra })),
  );

function platformConnection(caller: string) {
  return fc
    .record({
      id: fc.constantFrom('conn_1', 'conn_2', 'conn_3'),
      group: groupShapes(caller),
      extra: secretFields,
      consumerExtra: secretFields,
      appExtra: secretFields,
      status: fc.oneof(fc.constantFrom('working', 'created', 'bad_credentials'), marked),
      createTime: fc.constantFrom('2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z', MARK),
    })
    .map(({ id, group, extra, consumerExtra, appExtra, status, createTime }) => {
      const base: Record<string, unknown> = { ...sampleConnection({ id }), ...extra, status, createTime };
      if (group === undefined) delete base.group;
      else base.group = group;
      base.consumer = {
        consumerRef: 'u',
        consumerName: 'U',
        projectId: 'p',
        createTime: '2026-01-01T00:00:00Z',
        ...consumerExtra,
      };
      base.providerApp = {
        id: 'app',
        projectId: 'p',
        provider: 'slack',
        clientId: 'cid',
        createTime: '2026-01-01T00:00:00Z',
        ...appExtra,
      };
      return base;
    });
}

function platformUrl(platform: string) {
  const host = new URL(platform).host;
  return fc
    .tuple(
      fc.constantFrom(
        'https',
        'http',
        'HTTPS',
        'javascript',
        'JavaScript',
        'data',
        'vbscript',
        'file',
        'ftp',
        'ws',
        'blob',
        'about',
        '',
      ),
      fc.constantFrom('consent.example', 'evil.example', '127.0.0.1:9', 'localhost', host, 'user:pw@consent.example'),
      fc.constantFrom('/start?c=1', '/x', 'alert(document.domain)', 'text/html,<script>alert(1)</script>', ''),
    )
    .map(([scheme, h, path]) =>
      scheme === 'javascript' || scheme === 'JavaScript' || scheme === 'data' || scheme === 'vbscript'
        ? `${scheme}:${path}`
        : `${scheme ? `${scheme}:` : ''}//${h}${path}`,
    );
}

function platformProblem(platform: string) {
  const text = secretText(platform);
  return fc
    .record({
      status: fc.constantFrom(400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504),
      detail: text,
      title: fc.oneof(text, fc.constant(MARK)),
      type: fc.oneof(text, fc.constant(`https://docs.example/${MARK}`)),
      instance: fc.oneof(text, fc.constant(MARK)),
      requestId: fc.constant(MARK),
      remedy: fc.constant(MARK),
      supportUrl: fc.constant(`https://help.example/${MARK}`),
      causes: fc.constant([MARK]),
      context: fc.constant({ key: MARK }),
      extension: fc.constant(MARK),
      issues: fc.array(
        fc.record({
          in: fc.constantFrom('body', 'header', 'path', 'query', undefined),
          name: fc.oneof(
            fc.constantFrom('provider', 'providerWorkspaceRef', 'groupRef', 'providerMetadata.region', 'x-api-key'),
            text,
          ),
          detail: text,
          type: fc.constant(MARK),
          title: fc.constant(MARK),
          value: fc.oneof(
            fc.constant(MARK),
            fc.constant(KEY),
            fc.constant({ k: MARK }),
            fc.constant([MARK]),
            fc.constant('slack'),
          ),
        }),
        { maxLength: 4 },
      ),
      asText: fc.boolean(),
    })
    .map(({ status, asText, ...problem }): Reply =>
      asText
        ? { status, headers: { 'content-type': 'text/html' }, body: `<h1>${problem.detail}</h1>` }
        : { status, headers: { 'content-type': 'application/problem+json' }, body: { status, ...problem } },
    );
}

describe('createConnectHandler under random platform answers', () => {
  let platform: TestServer;
  let handler: ConnectHandler;
  /** What the platform double answers to the current run's requests, in order. */
  let script: Reply[] = [];

  before(async () => {
    platform = await startTestServer(() => script.shift() ?? { status: 500, body: {} });
    handler = createConnectHandler({
      apiKey: KEY,
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      retry: false,
      onError: () => {},
      authorize: (request) => {
        const group = groupOf(request.headers.get('cookie') ?? undefined);
        return group ? { groupRef: group, consumerRef: `user-of-${group}` } : null;
      },
    });
  });
  after(() => platform.close());

  it(`lets nothing secret through ${RUNS} random platform answers`, async () => {
    const outcomes = new Map<string, number>();
    const urlReply = fc
      .tuple(platformUrl(platform.url), fc.boolean())
      .map(([url, json]): Reply =>
        json
          ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(url) }
          : { headers: { 'content-type': 'text/plain' }, body: url },
      );
    const problemReply = platformProblem(platform.url);
    /** Per route, what the platform answers to each of the handler's requests, in order. */
    const answers = fc.constantFrom(...GROUPS).chain((caller) => {
      const connection = platformConnection(caller).map((body): Reply => ({ body }));
      return fc.tuple(
        fc.constant(caller),
        fc.oneof(
          fc.tuple(
            fc.constant('connect' as const),
            fc.oneof(urlReply, problemReply).map((r) => [r]),
          ),
          fc.tuple(
            fc.constant('update' as const),
            fc.oneof(fc.tuple(connection, fc.oneof(urlReply, problemReply)), fc.tuple(problemReply, problemReply)),
          ),
          fc.tuple(fc.constant('get' as const), fc.tuple(fc.oneof(connection, problemReply, urlReply), problemReply)),
          fc.tuple(
            fc.constant('list' as const),
            fc
              .oneof(
                fc.array(platformConnection(caller), { maxLength: 4 }).map((body): Reply => ({ body })),
                connection,
                problemReply,
              )
              .map((r) => [r]),
          ),
        ),
      );
    });
    await fc.assert(
      fc.asyncProperty(answers, async ([caller, [route, replies]]) => {
        // The handler's platform requests take these answers in order (update: the connection, then the URL; a 404 may add a probe).
        script = [...(replies as Reply[])];
        const init: RequestInit = {
          headers: { cookie: `sid=${caller}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        };
        let path = '/api/connect/connections/conn_1';
        if (route === 'connect') {
          path = '/api/connect/oauth-connect';
          init.method = 'POST';
          init.body = JSON.stringify({
            provider: 'slack',
            providerWorkspaceRef: 'ws-1',
            providerMetadata: { region: 'eu' },
          });
        } else if (route === 'update') {
          path = '/api/connect/connections/conn_1:oauth-update';
          init.method = 'PATCH';
        } else if (route === 'list') {
          path = '/api/connect/connections?provider=slack';
        }
        const response = await handler(new Request(`${APP}${path}`, init));
        const text = await response.text();
        const everything = `${text}\n${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}`;
        const host = new URL(platform.url);
        assert.equal(keyLeaks(everything), undefined, `the key leaked: ${text}`);
        assert.ok(!everything.includes(MARK), `a field that is not allow-listed leaked: ${text}`);
        // The URL answer is the platform's to give, and messageOrigin names its origin by design; nothing else may.
        const addressed = everything.replace(/"(?:url|messageOrigin)":"[^"]*"/g, '');
        assert.ok(
          !addressed.includes(host.hostname) && !addressed.includes(host.port),
          `the platform's address leaked: ${text}`,
        );
        assert.ok(
          !/\bat [^"]*\.ts:\d+|node:internal|\/srv\/|processTicks|at handler/.test(everything),
          `a stack leaked: ${text}`,
        );
        outcomes.set(`${route} ${response.status}`, (outcomes.get(`${route} ${response.status}`) ?? 0) + 1);
        if (response.status !== 200) {
          assert.equal(response.headers.get('content-type'), 'application/problem+json', text);
          const problem = JSON.parse(text);
          assert.equal(problem.status, response.status);
          for (const issue of problem.issues ?? []) {
            if ('value' in issue)
              assert.equal(
                issue.value,
                issue.name === 'provider' ? 'slack' : issue.name === 'providerMetadata.region' ? 'eu' : 'ws-1',
              );
          }
          return;
        }
        const answer = JSON.parse(text);
        if (route === 'connect' || route === 'update') {
          const url = new URL(answer.url);
          assert.ok(
            url.protocol === 'https:' ||
              (url.protocol === 'http:' && ['127.0.0.1', 'localhost'].includes(url.hostname)),
            answer.url,
          );
          assert.equal(url.username + url.password, '');
          return;
        }
        for (const connection of route === 'list' ? answer : [answer]) {
          assert.equal(connection.group.groupRef, caller, "only the caller group's connection");
          const allowed = [
            'id',
            'projectId',
            'provider',
            'group',
            'consumer',
            'createTime',
            'updateTime',
            'authScheme',
            'status',
            'providerApp',
            'providerWorkspaceRef',
            'providerConsumerRef',
          ];
          for (const key of Object.keys(connection))
            assert.ok(allowed.includes(key), `field ${key} is not allow-listed`);
        }
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), verbose: 1 },
    );
    // The generators reach every kind of answer: URLs used and refused, connections kept and refused, problems of each family.
    for (const outcome of [
      'connect 200',
      'connect 502',
      'connect 400',
      'update 200',
      'update 404',
      'get 200',
      'get 404',
      'list 200',
      'get 503',
      'get 429',
    ]) {
      assert.ok(outcomes.has(outcome), `no run ended ${outcome}: ${JSON.stringify([...outcomes])}`);
    }
  });
});
