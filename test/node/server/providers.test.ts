// GET {endpoint}/providers/{provider}: the platform's provider info, allow-listed into a BrowserProvider, only for
// the providers the handler offers, and asked of the platform at most once per provider per 10 minutes.
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
} from '../../../src/server/index.js';
import { APP } from '../helpers/handler-calls.js';
import { countingFetch, type CountingFetch } from '../helpers/platform-calls.js';

const API_KEY = 'providers-key-Hn42Lp';
const ADA = { groupRef: 'acme', consumerRef: 'user-ada' };

function get(handler: ConnectHandler, path: string): Promise<Response> {
  return handler(new Request(`${APP}${path}`, { headers: { 'sec-fetch-site': 'same-origin' } }));
}

async function problemOf(response: Response, status: number) {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  return JSON.parse(text);
}

/** A platform stand-in that answers get-provider with `info` (JSON), through the fetch option. */
function platformAnswering(info: unknown, status = 200): typeof fetch {
  return async () =>
    new Response(typeof info === 'string' ? info : JSON.stringify(info), {
      status,
      headers: { 'content-type': status < 400 ? 'application/json' : 'application/problem+json' },
    });
}

describe('the provider route', () => {
  let emulator: Emulator;
  let baseUrl: string;
  let counting: CountingFetch;
  let user: typeof ADA | null = ADA;

  function make(options: Partial<ConnectHandlerOptions> = {}): ConnectHandler {
    counting = countingFetch(options.fetch);
    return createConnectHandler({
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      authorize: () => user,
      retry: false,
      ...options,
      fetch: counting.fetch,
    });
  }

  const providerCalls = () => counting.calls.filter((c) => c.path.startsWith('/v1/providers/'));

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    ({ baseUrl } = await emulator.listen());
  });
  after(() => emulator.close());

  it("answers the platform's provider info, allow-listed", async () => {
    const handler = make();
    const response = await get(handler, '/api/connect/providers/salesforce');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    // The emulator's catalog also sends baseURL, defaultModule, support, labels and oauth2Opts' URLs: none of it here.
    const origin = new URL(baseUrl).origin;
    assert.deepEqual(await response.json(), {
      name: 'salesforce',
      displayName: 'Salesforce',
      authType: 'oauth2',
      // The emulator serves its icons itself, on its loopback origin: a loopback platform's http URLs are kept.
      media: {
        regular: { iconURL: `${origin}/media/salesforce.svg` },
        darkMode: { iconURL: `${origin}/media/salesforce-dark.svg` },
      },
      // Salesforce's generic login serves any org: no workspace needed. It signs in through consent.
      oauth2Opts: {
        docsURL: 'https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_web_server_flow.htm',
        explicitWorkspaceRequired: false,
        grantType: 'authorizationCode',
      },
    });
    assert.deepEqual(await (await get(handler, '/providers/slack/')).json(), {
      name: 'slack',
      displayName: 'Slack',
      authType: 'oauth2',
      media: {
        regular: { iconURL: `${origin}/media/slack.svg` },
        darkMode: { iconURL: `${origin}/media/slack-dark.svg` },
      },
      oauth2Opts: { explicitWorkspaceRequired: false, grantType: 'authorizationCode' },
    });
    // Zendesk needs its subdomain before the consent page can open.
    const zendesk = (await (await get(handler, '/providers/zendesk')).json()) as { oauth2Opts: unknown };
    assert.deepEqual(zendesk.oauth2Opts, { explicitWorkspaceRequired: true, grantType: 'authorizationCode' });
  });

  it('answers what a form provider asks for: its scheme, the key as basic, client credentials, custom inputs, docs', async () => {
    const handler = make();
    const info = async (name: string) => {
      const {
        name: _name,
        displayName: _display,
        media: _media,
        ...rest
      } = await (await get(handler, `/providers/${name}`)).json();
      return rest;
    };
    assert.deepEqual(await info('apollo'), {
      authType: 'apiKey',
      apiKeyOpts: { docsURL: 'https://docs.apollo.io/docs/create-api-key' },
    });
    assert.deepEqual(await info('insightly'), {
      authType: 'basic',
      basicOpts: {
        docsURL: 'https://support.insight.ly/en-US/Knowledge/article/2775#API%20Key%20and%20URL',
        apiKeyAsBasic: true,
        apiKeyAsBasicOpts: { fieldUsed: 'username' },
      },
    });
    assert.deepEqual(await info('cloudtalk'), {
      authType: 'basic',
      basicOpts: { docsURL: 'https://developers.cloudtalk.io/reference/authentication' },
    });
    assert.deepEqual(await info('paypal'), {
      authType: 'oauth2',
      oauth2Opts: {
        docsURL: 'https://developer.paypal.com/api/rest',
        explicitWorkspaceRequired: false,
        grantType: 'clientCredentials',
      },
    });
    assert.deepEqual(await info('clariCopilot'), {
      authType: 'custom',
      customOpts: {
        inputs: [
          { name: 'apiKey', displayName: 'API Key', docsURL: 'https://api-doc.copilot.clari.com/' },
          { name: 'apiSecret', displayName: 'API Secret', docsURL: 'https://api-doc.copilot.clari.com/' },
        ],
      },
    });
  });

  it('keeps a custom input’s field type and options, and checks every docs URL like any URL the browser gets', async () => {
    const handler = make({
      fetch: platformAnswering({
        name: 'odd',
        authType: 'custom',
        apiKeyOpts: { docsURL: 'javascript:alert(1)', attachmentType: 'header', header: { name: 'X-Key' } },
        basicOpts: {
          docsURL: 'http://docs.example/insecure',
          apiKeyAsBasic: 'yes',
          apiKeyAsBasicOpts: { fieldUsed: 'both' },
        },
        customOpts: {
          inputs: [
            {
              name: 'region',
              fieldType: 'fieldTypeSelect',
              options: [{ value: 'eu', label: 'Europe' }, { value: 'us' }, { label: 'no value' }],
              docsURL: 'data:text/html,x',
            },
            { displayName: 'no name' },
          ],
        },
      }),
    });
    const answer = await (await get(handler, '/providers/odd')).json();
    assert.equal(answer.apiKeyOpts, undefined, 'no usable docs URL, nothing else kept');
    assert.deepEqual(
      answer.basicOpts,
      {},
      'an http docs URL of a remote platform, a non-boolean and an unknown field dropped',
    );
    assert.deepEqual(answer.customOpts, {
      inputs: [
        {
          name: 'region',
          fieldType: 'fieldTypeSelect',
          options: [
            { value: 'eu', label: 'Europe' },
            { value: 'us', label: 'us' },
          ],
        },
      ],
    });
  });

  it('keeps at most 20 custom inputs and 100 options of a choice, and the key as the password', async () => {
    const handler = make({
      fetch: platformAnswering({
        name: 'many',
        authType: 'custom',
        basicOpts: { apiKeyAsBasic: true, apiKeyAsBasicOpts: { fieldUsed: 'password' } },
        customOpts: {
          inputs: [
            {
              name: 'region',
              fieldType: 'fieldTypeSelect',
              options: Array.from({ length: 150 }, (_, i) => ({ value: `r${i}` })),
            },
            ...Array.from({ length: 30 }, (_, i) => ({ name: `input${i}` })),
          ],
        },
      }),
    });
    const answer = await (await get(handler, '/providers/many')).json();
    assert.deepEqual(answer.basicOpts, { apiKeyAsBasic: true, apiKeyAsBasicOpts: { fieldUsed: 'password' } });
    const inputs = answer.customOpts.inputs;
    assert.equal(inputs.length, 20);
    assert.equal(inputs.at(-1).name, 'input18');
    assert.equal(inputs[0].options.length, 100);
    assert.deepEqual(inputs[0].options.at(-1), { value: 'r99', label: 'r99' });
  });

  it('asks the platform once per provider, concurrent first requests sharing the call', async () => {
    const handler = make();
    const first = await Promise.all(Array.from({ length: 5 }, () => get(handler, '/providers/hubspot')));
    for (const response of first) assert.equal(response.status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await get(handler, '/providers/hubspot')).status, 200);
    assert.equal((await get(handler, '/providers/notion')).status, 200);
    assert.deepEqual(
      providerCalls().map((c) => `${c.method} ${c.path}`),
      ['GET /v1/providers/hubspot', 'GET /v1/providers/notion'],
    );
    // Another handler has its own memory.
    const other = make();
    await get(other, '/providers/hubspot');
    assert.equal(providerCalls().length, 1);
  });

  it('asks again after 10 minutes', async () => {
    mock.timers.enable({ apis: ['Date'], now: Date.now() });
    try {
      const handler = make();
      assert.equal((await get(handler, '/providers/linear')).status, 200);
      mock.timers.tick(10 * 60 * 1000 - 1);
      assert.equal((await get(handler, '/providers/linear')).status, 200);
      assert.equal(providerCalls().length, 1, 'still cached just before 10 minutes');
      mock.timers.tick(1);
      assert.equal((await get(handler, '/providers/linear')).status, 200);
      assert.equal(providerCalls().length, 2, 'asked again at 10 minutes');
      assert.equal((await get(handler, '/providers/linear')).status, 200);
      assert.equal(providerCalls().length, 2);
    } finally {
      mock.timers.reset();
    }
  });

  it('answers 404 for a provider the platform does not know, and does not keep that answer', async () => {
    const handler = make();
    const body = await problemOf(await get(handler, '/providers/nope'), 404);
    assert.equal(body.detail, 'no such provider');
    await problemOf(await get(handler, '/providers/nope'), 404);
    assert.equal(providerCalls().length, 2);
  });

  it('answers 404 outside the providers allow-list, and for names that are no plain name, without asking', async () => {
    const handler = make({ providers: ['slack'] });
    assert.equal((await get(handler, '/providers/slack')).status, 200);
    counting.calls.length = 0;
    for (const name of ['salesforce', 'Slack', '%2F', 'a%2Fb', 'a%5Cb', '%00', '%20', '%ZZ', 'p'.repeat(513)]) {
      const body = await problemOf(await get(handler, `/providers/${name}`), 404);
      assert.equal(body.detail, 'no such provider', name);
    }
    // A URL parser resolves these before routing: no provider route at all, still a 404.
    for (const name of ['.', '..', '%2e', '%2e%2e']) await problemOf(await get(handler, `/providers/${name}`), 404);
    const open = make();
    for (const name of ['..', '%2e', '%2F', '%0a', '%ZZ', 'p'.repeat(513)])
      await problemOf(await get(open, `/providers/${name}`), 404);
    assert.deepEqual(counting.calls, []);
  });

  it('needs authorize like every route: an anonymous caller gets 401, and the platform is not asked', async () => {
    user = null;
    try {
      const handler = make();
      await problemOf(await get(handler, '/providers/slack'), 401);
      assert.deepEqual(counting.calls, []);
    } finally {
      user = ADA;
    }
  });

  it('answers 405 with Allow: GET to any other method', async () => {
    const handler = make();
    const response = await handler(
      new Request(`${APP}/providers/slack`, { method: 'DELETE', headers: { 'sec-fetch-site': 'same-origin' } }),
    );
    assert.equal(response.headers.get('allow'), 'GET');
    await problemOf(response, 405);
  });

  describe('what a hostile platform sends', () => {
    const long = 'x'.repeat(5000);
    const hostile = {
      name: 'netsuite',
      displayName: 'NetSuite',
      authType: 'oauth2',
      baseURL: 'https://{{.workspace}}.suitetalk.api.netsuite.com',
      labels: { secret: 'internal' },
      support: { read: true },
      oauth2Opts: {
        explicitWorkspaceRequired: true,
        authURL: 'https://internal.example/auth',
        tokenURL: 'https://internal.example/token',
        clientSecret: 'LEAK-oauth',
      },
      media: {
        regular: { iconURL: 'https://cdn.example/icon.svg', logoURL: 'javascript:alert(1)', extra: 'LEAK-media' },
        darkMode: { iconURL: 'http://cdn.example/dark.svg', logoURL: 'http://localhost:4010/dark-logo.svg' },
        other: { iconURL: 'https://cdn.example/other.svg' },
      },
      metadata: {
        secret: 'LEAK-metadata',
        input: [
          {
            name: 'accountId',
            displayName: 'Account ID',
            prompt: 'Your NetSuite account ID',
            defaultValue: '1234',
            docsURL: 'https://docs.example/account',
            secret: 'LEAK-input',
          },
          { displayName: 'no name' },
          { name: 42 },
          { name: long },
          'just a string',
          null,
          {
            name: 'region',
            displayName: 7,
            prompt: long,
            defaultValue: { v: 1 },
            docsURL: 'data:text/html,<script>',
          },
          { name: 'userinfo', docsURL: 'https://user:pass@docs.example/' },
          ...Array.from({ length: 100 }, (_, i) => ({ name: `extra${i}` })),
        ],
      },
    };

    it('keeps only the allow-listed fields, with their types, bounded, and usable URLs', async () => {
      const handler = make({ baseUrl: 'https://platform.example/v1', fetch: platformAnswering(hostile) });
      const response = await get(handler, '/providers/netsuite');
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.ok(!text.includes('LEAK') && !text.includes('internal'), text);
      const answer = JSON.parse(text);
      assert.deepEqual(
        { ...answer, metadata: undefined },
        {
          name: 'netsuite',
          displayName: 'NetSuite',
          authType: 'oauth2',
          oauth2Opts: { explicitWorkspaceRequired: true },
          // http is no usable URL from a platform that is not on loopback.
          media: { regular: { iconURL: 'https://cdn.example/icon.svg' } },
          metadata: undefined,
        },
      );
      const inputs = answer.metadata.input;
      assert.deepEqual(inputs.slice(0, 3), [
        {
          name: 'accountId',
          displayName: 'Account ID',
          prompt: 'Your NetSuite account ID',
          defaultValue: '1234',
          docsURL: 'https://docs.example/account',
        },
        { name: 'region' },
        { name: 'userinfo' },
      ]);
      // Of the first 20 items only: 8 above, of which 5 are dropped, and 12 of the extra ones.
      assert.equal(inputs.length, 15);
      assert.equal(inputs.at(-1).name, 'extra11');
      assert.ok(text.length < 2000, `${text.length} characters`);
    });

    it('keeps http URLs on a loopback host when the platform itself is on loopback', async () => {
      const handler = make({ baseUrl: 'http://127.0.0.1:9/v1', fetch: platformAnswering(hostile) });
      const answer = await (await get(handler, '/providers/netsuite')).json();
      assert.deepEqual(answer.media, {
        regular: { iconURL: 'https://cdn.example/icon.svg' },
        darkMode: { logoURL: 'http://localhost:4010/dark-logo.svg' },
      });
    });

    it('drops wrong types and too-long strings, and keeps the asked name when the platform sends none', async () => {
      const handler = make({
        baseUrl: 'https://platform.example/v1',
        fetch: platformAnswering({
          name: long,
          displayName: long,
          authType: ['oauth2'],
          oauth2Opts: { explicitWorkspaceRequired: 'yes' },
          media: { regular: { iconURL: `https://cdn.example/${long}` } },
          metadata: { input: 'accountId' },
        }),
      });
      assert.deepEqual(await (await get(handler, '/providers/odd')).json(), { name: 'odd' });
    });

    it("keeps the platform's name up to 128 characters and its texts up to 1024, the asked name past that", async () => {
      const name = 'n'.repeat(128);
      const displayName = 'd'.repeat(1024);
      const answering = (info: unknown) =>
        make({ baseUrl: 'https://platform.example/v1', fetch: platformAnswering(info) });
      assert.deepEqual(
        await (await get(answering({ name, displayName, authType: 'a'.repeat(128) }), '/providers/odd')).json(),
        { name, displayName, authType: 'a'.repeat(128) },
      );
      assert.deepEqual(
        await (
          await get(
            answering({ name: `${name}n`, displayName: `${displayName}d`, authType: 'a'.repeat(129) }),
            '/providers/odd',
          )
        ).json(),
        { name: 'odd' },
      );
      // The platform's name is the one answered, even when it is not the one asked.
      assert.deepEqual(await (await get(answering({ name: 'netsuite' }), '/providers/odd')).json(), {
        name: 'netsuite',
      });
    });

    it('keeps a URL of exactly 2048 characters, and none longer as sent or once encoded', async () => {
      const base = 'https://cdn.example/';
      const exact = `${base}${'a'.repeat(2048 - base.length)}`;
      // Leading spaces a URL parser drops: 2100 characters as sent, 28 once parsed.
      const padded = `${' '.repeat(2072)}${base}logo.svg`;
      // 1020 characters as sent, each é sent on as %C3%A9: 6020 once parsed.
      const encoded = `${base}${'é'.repeat(1000)}`;
      const handler = make({
        baseUrl: 'https://platform.example/v1',
        fetch: platformAnswering({
          name: 'odd',
          media: { regular: { iconURL: exact, logoURL: padded }, darkMode: { iconURL: encoded } },
          metadata: {
            input: [
              { name: 'accountId', docsURL: padded },
              { name: 'region', docsURL: exact },
            ],
          },
        }),
      });
      assert.equal(exact.length, 2048);
      assert.equal(padded.length, 2100);
      assert.equal(new URL(padded).href.length, 28);
      assert.equal(new URL(encoded).href.length, 6020);
      assert.deepEqual(await (await get(handler, '/providers/odd')).json(), {
        name: 'odd',
        media: { regular: { iconURL: exact } },
        metadata: { input: [{ name: 'accountId' }, { name: 'region', docsURL: exact }] },
      });
    });

    it('answers 502 for an answer that is no object, and keeps no failure', async () => {
      const errors: ConnectHandlerErrorInfo[] = [];
      const handler = make({
        baseUrl: 'https://platform.example/v1',
        fetch: platformAnswering([1, 2]),
        onError: (info) => errors.push(info),
      });
      const body = await problemOf(await get(handler, '/providers/odd'), 502);
      assert.equal(body.type, 'urn:connect-provider:problem:upstream');
      await problemOf(await get(handler, '/providers/odd'), 502);
      assert.equal(providerCalls().length, 2);
      assert.equal(errors[0].kind, 'platform');
      assert.match(errors[0].message, /platform get-provider answered something other than an object/);
    });

    it('maps a platform failure to a problem with no secret and no platform address', async () => {
      const handler = make({
        baseUrl: 'https://platform.example/v1',
        fetch: platformAnswering({ title: `key ${API_KEY}`, detail: 'at https://platform.example/v1/x' }, 500),
        onError: () => {},
      });
      const response = await get(handler, '/providers/slack');
      const text = await response.clone().text();
      await problemOf(response, 502);
      assert.ok(!text.includes(API_KEY) && !text.includes('platform.example'), text);
    });
  });
});
