// What the browser may send (src/server/input.ts): oauth-connect's body and its provider hints, connection IDs and the
// provider query, each checked and bounded before the platform is asked.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { HttpProblem } from '../../../src/http/http-problem.js';
import { createConnectHandler, type ConnectHandler } from '../../../src/server/index.js';
import { decodeProviderName } from '../../../src/server/input.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { APP, call, urlReply } from '../helpers/handler-calls.js';
import { countingFetch, type CountingFetch } from '../helpers/platform-calls.js';
import { handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

const API_KEY = 'hints-key-Pw27Rt';

describe('provider hints of oauth-connect', () => {
  let emulator: Emulator;
  let handler: ConnectHandler;
  let counting: CountingFetch;

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    const { baseUrl } = await emulator.listen();
    counting = countingFetch();
    handler = createConnectHandler({
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
      retry: false,
      fetch: counting.fetch,
    });
  });
  after(() => emulator.close());

  const connect = (body: Record<string, unknown>) =>
    handler(
      new Request(`${APP}/api/connect/oauth-connect`, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );

  const BAD = ['a/b', 'a?b', 'a#b', 'a\u0000b', 'a\nb', 'a b', '-ws', 'ws-', 'ws.', 'a:b', 'a@b', 'a%2Fb'];

  it('refuses a provider name no platform path can hold (., .., a slash, a control character) as a 400, with no call and no report', async () => {
    const reports: unknown[] = [];
    const reporting = createConnectHandler({
      apiKey: API_KEY,
      baseUrl: 'http://127.0.0.1:9/v1',
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
      retry: false,
      fetch: counting.fetch,
      onError: (report) => void reports.push(report),
    });
    counting.calls.length = 0;
    for (const route of ['/oauth-connect', '/connections'])
      for (const provider of ['.', '..', 'a/b', 'a\\b', '../providers', 'a\u0001b']) {
        const response = await reporting(
          new Request(`${APP}/api/connect${route}`, {
            method: 'POST',
            headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
            body: JSON.stringify({ provider, apiKey: 'k' }),
          }),
        );
        const problem = await problemOf(response, 400);
        assert.equal(problem.issues[0].name, 'provider', `${route} ${JSON.stringify(provider)}`);
      }
    assert.deepEqual(counting.calls, [], 'the platform is never asked');
    assert.deepEqual(reports, [], 'nothing is reported as internal');
  });

  it('refuses a providerWorkspaceRef that is no hostname label, naming it, without asking the platform', async () => {
    counting.calls.length = 0;
    for (const value of [...BAD, 'w'.repeat(254)]) {
      const response = await connect({ provider: 'zendesk', providerWorkspaceRef: value });
      const body = await response.json();
      assert.equal(response.status, 400, JSON.stringify(value));
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      assert.equal(body.type, 'urn:connect-provider:problem:validation');
      assert.equal(body.issues[0].name, 'providerWorkspaceRef', JSON.stringify(value));
      assert.equal(body.issues[0].in, 'body');
    }
    assert.deepEqual(counting.calls, []);
  });

  it('refuses a providerAppId that is no ID, naming it, without asking the platform', async () => {
    counting.calls.length = 0;
    // ('-ws' and 'ws-' are fine IDs.)
    for (const value of [...BAD.filter((v) => !v.startsWith('-') && !v.endsWith('-')), 'app.slack', 'a'.repeat(129)]) {
      const response = await connect({ provider: 'slack', providerAppId: value });
      const body = await response.json();
      assert.equal(response.status, 400, JSON.stringify(value));
      assert.equal(body.issues[0].name, 'providerAppId', JSON.stringify(value));
    }
    assert.deepEqual(counting.calls, []);
  });

  it('forwards hints that fit, up to their longest', async () => {
    for (const body of [
      { provider: 'zendesk', providerWorkspaceRef: 'acme-support' },
      { provider: 'zendesk', providerWorkspaceRef: 'eu.acme-1' },
      { provider: 'zendesk', providerWorkspaceRef: 'w'.repeat(253) },
      { provider: 'zendesk', providerWorkspaceRef: '7' },
      { provider: 'slack', providerAppId: 'app_slack' },
      { provider: 'slack', providerWorkspaceRef: '', providerAppId: '' },
    ]) {
      const response = await connect(body);
      assert.equal(response.status, 200, `${JSON.stringify(body)}: ${await response.clone().text()}`);
      const session = emulator.state.consents.at(-1)!;
      if (body.providerWorkspaceRef) assert.equal(session.providerWorkspaceRef, body.providerWorkspaceRef);
    }
    // The longest app ID is forwarded: the platform itself answers that it has no such app.
    counting.calls.length = 0;
    const longest = await connect({ provider: 'slack', providerAppId: 'a'.repeat(128) });
    assert.equal(counting.calls.length, 1);
    assert.match((await longest.json()).detail, /no slack provider app a{128} in project demo/);
  });
});

describe("oauth-connect's body", () => {
  const { make, asked, errors } = handlerOnPlatformDouble();
  const connect = (handler: ConnectHandler, body: unknown) => call(handler, '/oauth-connect', { method: 'POST', body });
  const sent = () => JSON.parse(asked().at(-1)!.body);

  it('bounds provider and each hint at 512 characters, and forwards what fits', { timeout: 10_000 }, async () => {
    const handler = make();
    const long = 'p'.repeat(512);
    // The hints fit their own rules (a hostname label of 253 at most, an ID of 128 at most: provider-hints tests).
    const workspace = 'w'.repeat(253);
    const app = 'a'.repeat(128);
    assert.equal(
      (await connect(handler, { provider: long, providerWorkspaceRef: workspace, providerAppId: app })).status,
      200,
    );
    assert.deepEqual(sent(), {
      projectId: 'demo',
      provider: long,
      providerWorkspaceRef: workspace,
      providerAppId: app,
      groupRef: 'acme',
      consumerRef: 'user-ada',
    });
    const before = asked().length;
    for (const field of ['provider', 'providerWorkspaceRef', 'providerAppId']) {
      const body = await problemOf(await connect(handler, { provider: 'slack', [field]: `${long}x` }), 400);
      assert.equal(body.type, 'urn:connect-provider:problem:validation');
      assert.equal(body.title, 'Invalid request');
      assert.equal(body.detail, `${field} is too long`);
      assert.deepEqual(body.issues, [{ detail: 'is too long', in: 'body', name: field }], 'a long value is not echoed');
    }
    // 512 characters are not too long: a hint that long is refused by its own rule, naming it and echoing it.
    for (const [field, rule] of [
      ['providerWorkspaceRef', 'must be a hostname label'],
      ['providerAppId', 'must be an ID'],
    ]) {
      const body = await problemOf(await connect(handler, { provider: 'slack', [field]: 'h'.repeat(512) }), 400);
      assert.ok(body.detail.startsWith(`${field} ${rule}:`), body.detail);
      assert.equal(body.issues[0].value, 'h'.repeat(512));
    }
    assert.equal(asked().length, before, 'nothing refused reaches the platform');
  });

  it(
    'drops empty and null hints, refuses hints and ignored fields that are not strings, echoing short values only',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      assert.equal(
        (
          await connect(handler, {
            provider: 'slack',
            providerWorkspaceRef: '',
            providerAppId: null,
            groupRef: null,
            consumerName: null,
            providerMetadata: null,
          })
        ).status,
        200,
      );
      assert.deepEqual(sent(), { projectId: 'demo', provider: 'slack', groupRef: 'acme', consumerRef: 'user-ada' });
      assert.equal(
        (await connect(handler, { provider: 'slack', groupRef: 'evil', consumerRef: 'mallory' })).status,
        200,
      );
      assert.equal(sent().groupRef, 'acme', 'group and consumer come from authorize(), never from the body');
      const cases: Array<[Record<string, unknown>, string, unknown]> = [
        [{ provider: '   ' }, 'provider', '   '],
        [{ provider: ' '.repeat(512) }, 'provider', ' '.repeat(512)],
        [{ provider: ' '.repeat(513) }, 'provider', undefined],
        [{ provider: 7 }, 'provider', 7],
        [{ provider: false }, 'provider', false],
        [{ provider: { name: 'slack' } }, 'provider', undefined],
        [{ provider: 'slack', providerAppId: true }, 'providerAppId', true],
        [{ provider: 'slack', providerWorkspaceRef: ['ws'] }, 'providerWorkspaceRef', undefined],
        [{ provider: 'slack', groupRef: 5 }, 'groupRef', 5],
        [{ provider: 'slack', consumerName: { a: 1 } }, 'consumerName', undefined],
        [{ provider: 'slack', groupName: 600 }, 'groupName', 600],
      ];
      for (const [body, name, value] of cases) {
        const problem = await problemOf(await connect(handler, body), 400);
        assert.equal(problem.issues.length, 1, JSON.stringify(body));
        assert.equal(problem.issues[0].name, name, JSON.stringify(body));
        assert.equal(problem.issues[0].in, 'body');
        assert.deepEqual(problem.issues[0].value, value, JSON.stringify(body));
        assert.equal('value' in problem.issues[0], value !== undefined, JSON.stringify(body));
      }
      assert.equal((await problemOf(await connect(handler, { provider: 7 }), 400)).detail, 'provider is required');
      const wrongType = await problemOf(await connect(handler, { provider: 'slack', providerAppId: 7 }), 400);
      assert.equal(wrongType.detail, 'providerAppId must be a string');
      assert.equal(wrongType.issues[0].detail, 'must be a string');
      const ignored = await problemOf(await connect(handler, { provider: 'slack', groupRef: 5 }), 400);
      assert.equal(ignored.detail, 'groupRef must be a string');
      assert.equal(ignored.issues[0].detail, 'must be a string');
      for (const text of ['null', '"slack"', '[{"provider":"slack"}]', '7']) {
        const root = await problemOf(await connect(handler, text), 400);
        assert.equal(root.detail, '(root) must be a JSON object', text);
        assert.deepEqual(root.issues, [{ detail: 'must be a JSON object', in: 'body', name: '(root)' }], text);
      }
    },
  );

  it(
    'answers 499 when the body breaks off because the browser went away, and 500 for any other break',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const broken = (error: Error) =>
        handler(
          new Request(`${APP}/api/connect/oauth-connect`, {
            method: 'POST',
            headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
            body: new ReadableStream({
              pull(controller) {
                controller.error(error);
              },
            }),
            duplex: 'half',
          } as RequestInit),
        );
      for (const gone of [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), new Error('aborted')]) {
        const body = await problemOf(await broken(gone), 499);
        assert.equal(body.detail, 'the request body was cut off', gone.message);
      }
      assert.equal(errors.length, 0, "the browser's leaving is not the server's failure");
      const other = await problemOf(await broken(new RangeError('decoder broke')), 500);
      assert.equal(other.detail, 'the connect handler failed');
      assert.deepEqual(
        errors.map((e) => [e.kind, e.message]),
        [['internal', 'POST /api/connect/oauth-connect answered 500: unexpected RangeError: decoder broke']],
      );
      assert.equal(asked().length, 0);
    },
  );

  it(
    'takes providerMetadata up to exactly 5 levels, 200 keys and items, and 4096 bytes of JSON',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const nest = (levels: number) => {
        let value: Record<string, unknown> = { leaf: 1 };
        for (let i = 1; i < levels; i++) value = { d: value };
        return value;
      };
      const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
      // {"a":"…"} is 8 bytes around its text; é is 2 bytes in UTF-8.
      const fits: Array<[string, Record<string, unknown>]> = [
        ['5 levels', nest(5)],
        ['200 keys', keys(200)],
        ['199 keys and an array of 1', { ...keys(198), list: [1] }],
        ['4096 bytes', { a: 'x'.repeat(4088) }],
        ['nulls', { a: null, b: [null, 1], c: { d: null } }],
      ];
      for (const [name, providerMetadata] of fits) {
        assert.equal((await connect(handler, { provider: 'slack', providerMetadata })).status, 200, name);
        assert.deepEqual(sent().providerMetadata, providerMetadata, name);
      }
      const refused: Array<[string, unknown, string]> = [
        ['6 levels', nest(6), 'providerMetadata is nested deeper than 5 levels'],
        ['6 levels of arrays', { a: [[[[[]]]]] }, 'providerMetadata is nested deeper than 5 levels'],
        ['201 keys', keys(201), 'providerMetadata has more than 200 keys and items'],
        [
          '200 keys and an array of 1',
          { ...keys(199), list: [1] },
          'providerMetadata has more than 200 keys and items',
        ],
        ['4097 bytes', { a: 'x'.repeat(4089) }, 'providerMetadata is larger than 4096 bytes'],
        ['4098 bytes in 2053 characters', { a: 'é'.repeat(2045) }, 'providerMetadata is larger than 4096 bytes'],
        ['an array', ['eu'], 'providerMetadata must be an object'],
        ['a string', 'eu', 'providerMetadata must be an object'],
      ];
      for (const [name, providerMetadata, detail] of refused) {
        const body = await problemOf(await connect(handler, { provider: 'slack', providerMetadata }), 400);
        assert.equal(body.detail, detail, name);
        assert.equal(body.issues[0].name, 'providerMetadata', name);
      }
    },
  );
});

describe('connection IDs and the provider query', () => {
  const { platform, make, asked } = handlerOnPlatformDouble();
  it(
    'answers 404 without asking the platform for an ID that is empty, too long, undecodable or holds a control character',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.reply = (request) =>
        request.method === 'PATCH' ? urlReply('https://consent.example/u') : { body: sampleConnection({ id: 'x' }) };
      for (const id of ['%E0%A4%A', 'a%00b', 'a%1Fb', 'a%7Fb', 'i'.repeat(513), '%69'.repeat(513)]) {
        for (const [path, method] of [
          [`/connections/${id}`, 'GET'],
          [`/connections/${id}:oauth-update`, 'PATCH'],
        ]) {
          const body = await problemOf(await call(handler, path, { method }), 404);
          assert.equal(body.detail, 'no such connection', id);
        }
      }
      assert.equal(asked().length, 0);
      const longest = 'i'.repeat(512);
      assert.equal((await call(handler, `/connections/${longest}`)).status, 200);
      assert.equal(asked()[0].path, `/v1/projects/demo/connections/${longest}`);
      assert.equal((await call(handler, '/connections/a%20b%2Fc:oauth-update', { method: 'PATCH' })).status, 200);
      assert.equal(
        asked().at(-1)!.path,
        '/v1/projects/demo/connections/a%20b%2Fc:oauth-update',
        'decoded, then encoded again',
      );
    },
  );

  it(
    'refuses a provider query that is blank, too long or holds a control character; forwards one that fits',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.reply = () => ({ body: [] });
      for (const query of ['', '%20%20', 'a%01', 'a%7F', 'p'.repeat(513)]) {
        const body = await problemOf(await call(handler, `/connections?provider=${query}`), 400);
        assert.equal(body.type, 'urn:connect-provider:problem:validation', query);
        assert.equal(body.title, 'Invalid request');
        assert.deepEqual(body.issues, [{ detail: 'must be a non-empty provider name', in: 'query', name: 'provider' }]);
        assert.equal(body.detail, 'provider must be a non-empty provider name');
      }
      assert.equal(asked().length, 0);
      assert.equal((await call(handler, `/connections?provider=${'p'.repeat(512)}`)).status, 200);
      assert.equal(asked()[0].query.provider, 'p'.repeat(512));
      assert.equal((await call(handler, '/connections')).status, 200);
      assert.ok(!('provider' in asked()[1].query), 'no provider asked: any provider');
    },
  );

  it(
    'answers a provider outside the allow-list with provider-not-allowed, in the body or the query',
    { timeout: 10_000 },
    async () => {
      const handler = make({ providers: ['slack'] });
      platform.reply = () => ({ body: [] });
      const listed = await problemOf(await call(handler, '/connections?provider=notion'), 400);
      assert.equal(listed.type, 'urn:connect-provider:problem:provider-not-allowed');
      assert.equal(listed.title, 'Provider not allowed');
      assert.deepEqual(listed.issues, [
        { detail: 'is not offered by this app', in: 'query', name: 'provider', value: 'notion' },
      ]);
      const connected = await problemOf(
        await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'notion' } }),
        400,
      );
      assert.equal(connected.type, 'urn:connect-provider:problem:provider-not-allowed');
      assert.equal(connected.title, 'Provider not allowed');
      assert.deepEqual(connected.issues, [
        { detail: 'is not offered by this app', in: 'body', name: 'provider', value: 'notion' },
      ]);
      assert.equal(connected.detail, 'provider notion is not offered by this app');
      assert.equal(listed.detail, 'provider notion is not offered by this app');
      assert.equal(asked().length, 0);
      assert.equal((await call(handler, '/connections?provider=slack')).status, 200);
      assert.equal(asked()[0].query.provider, 'slack');
    },
  );
});

describe('the own query', () => {
  const { platform, make, asked } = handlerOnPlatformDouble();
  it(
    'refuses any own other than true or 1, once, with a validation problem naming it',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.reply = () => ({ body: [] });
      for (const query of ['own=false', 'own=', 'own=yes', 'own=1&own=1']) {
        const body = await problemOf(await call(handler, `/connections?${query}`), 400);
        assert.deepEqual(
          { type: body.type, title: body.title, detail: body.detail, issues: body.issues },
          {
            type: 'urn:connect-provider:problem:validation',
            title: 'Invalid request',
            detail: 'own must be true or 1 (or left out for the whole group)',
            issues: [{ detail: 'must be true or 1', in: 'query', name: 'own' }],
          },
          query,
        );
      }
      assert.equal(asked().length, 0);
    },
  );
});

describe('provider names of the provider route', () => {
  const { platform, make, asked } = handlerOnPlatformDouble();
  it(
    'answers 404 without asking the platform for a blank name or one over 512 characters; asks for one of 512',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.reply = () => ({ body: { name: 'p' } });
      for (const name of ['%20', '%20%20', 'p'.repeat(513), `${'p'.repeat(511)}%20%20`]) {
        const body = await problemOf(await call(handler, `/providers/${name}`), 404);
        assert.equal(body.detail, 'no such provider', name);
      }
      assert.equal(asked().length, 0);
      const longest = 'p'.repeat(512);
      assert.equal((await call(handler, `/providers/${longest}`)).status, 200);
      assert.deepEqual(
        asked().map((request) => request.path),
        [`/v1/providers/${longest}`],
      );
    },
  );

  it('takes no . or .. for a provider name (a URL parser resolves them before routing, too)', () => {
    for (const raw of ['.', '..', '%2e', '%2E%2e']) {
      assert.throws(
        () => decodeProviderName(raw),
        (error: unknown) =>
          error instanceof HttpProblem && error.init.status === 404 && error.init.detail === 'no such provider',
        raw,
      );
    }
    assert.equal(decodeProviderName('...'), '...');
    assert.equal(decodeProviderName('.slack'), '.slack');
  });
});
