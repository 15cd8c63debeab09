// GET {endpoint}/integrations: the providers of the project's integrations, each once and in the platform's order,
// narrowed by the handler's allow-list, each with the providers route's allow-listed info from the same cache; a
// platform that cannot answer is a problem, never an empty list; a huge list costs at most 100 provider calls.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
} from '../../../src/server/index.js';
import { INTEGRATIONS_LIMIT } from '../../../src/server/integrations.js';
import { call, problemReply } from '../helpers/handler-calls.js';
import type { RecordedRequest, Reply } from '../helpers/http-server.js';
import { countingFetch, type CountingFetch } from '../helpers/platform-calls.js';
import { ADA, DOUBLE_KEY, handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';
import { DEMO_INTEGRATION_PROVIDERS } from '../../shared/fixtures.js';

/** The providers of project demo's integrations, in the emulator's order (oldest first: int_demo's hubspot first). */
const DEMO_PROVIDERS: readonly string[] = DEMO_INTEGRATION_PROVIDERS;

async function listOf(response: Response): Promise<Array<{ provider: string } & Record<string, unknown>>> {
  const text = await response.text();
  assert.equal(response.status, 200, text);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  return JSON.parse(text);
}

describe('the integrations route against the emulator', () => {
  const API_KEY = 'integrations-key-Qw81Zx';
  let emulator: Emulator;
  let baseUrl: string;
  let counting: CountingFetch;
  const errors: ConnectHandlerErrorInfo[] = [];
  let user: typeof ADA | null = ADA;

  function make(options: Partial<ConnectHandlerOptions> = {}): ConnectHandler {
    counting = countingFetch();
    errors.length = 0;
    return createConnectHandler({
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      authorize: () => user,
      retry: false,
      onError: (info) => errors.push(info),
      ...options,
      fetch: counting.fetch,
    });
  }
  const providerCalls = () => counting.calls.filter((c) => c.path.startsWith('/v1/providers/')).map((c) => c.path);
  const listCalls = () => counting.calls.filter((c) => c.path === '/v1/projects/demo/integrations');

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    ({ baseUrl } = await emulator.listen());
  });
  after(() => emulator.close());

  it("answers each provider of the project's integrations once, in the platform's order, with the providers route's info", async () => {
    const handler = make();
    const list = await listOf(await call(handler, '/api/connect/integrations'));
    assert.deepEqual(
      list.map((entry) => entry.provider),
      DEMO_PROVIDERS,
    );
    // Each entry is `{ provider, ...what GET /providers/{provider} answers }`, field for field.
    for (const entry of list) {
      const { provider, ...info } = entry;
      const single = await (await call(handler, `/api/connect/providers/${provider}`)).json();
      assert.deepEqual(info, single, provider);
    }
    assert.equal(list[0].displayName, 'HubSpot');
    assert.equal(list.find((entry) => entry.provider === 'apollo')!.authType, 'apiKey');
    assert.equal(list.find((entry) => entry.provider === 'clariCopilot')!.authType, 'custom');
    // No secret and no platform address but the icons it serves itself (a loopback platform's icons are kept).
    const text = JSON.stringify(list);
    assert.ok(!text.includes(API_KEY));
    const origin = new URL(baseUrl).origin;
    assert.ok(!text.replaceAll(`${origin}/media/`, '').includes(new URL(baseUrl).host), text);
    // The trailing slash and any prefix are the same route.
    assert.deepEqual(await listOf(await call(handler, '/integrations/')), list);
  });

  it('narrows the list to the allow-list, in the platform’s order, and never asks about the others', async () => {
    const handler = make({ providers: ['slack', 'notion', 'hubspot', 'apollo'] });
    const list = await listOf(await call(handler, '/api/connect/integrations'));
    // notion is allowed but is no integration of the project: no row.
    assert.deepEqual(
      list.map((entry) => entry.provider),
      ['hubspot', 'slack', 'apollo'],
    );
    assert.deepEqual([...providerCalls()].sort(), [
      '/v1/providers/apollo',
      '/v1/providers/hubspot',
      '/v1/providers/slack',
    ]);
  });

  it('asks the platform about each provider once across the integrations and providers routes', async () => {
    const handler = make();
    // Concurrent first requests share the calls: two lists and a provider at the same time.
    const first = await Promise.all([
      call(handler, '/api/connect/integrations'),
      call(handler, '/api/connect/integrations'),
      call(handler, '/api/connect/providers/slack'),
    ]);
    for (const response of first) assert.equal(response.status, 200);
    assert.equal(providerCalls().length, DEMO_PROVIDERS.length, providerCalls().join(' '));
    // Afterwards, both routes answer from the cache: only the list of integrations is asked again.
    await listOf(await call(handler, '/api/connect/integrations'));
    assert.equal((await call(handler, '/api/connect/providers/zendesk')).status, 200);
    assert.deepEqual([...providerCalls()].sort(), DEMO_PROVIDERS.map((p) => `/v1/providers/${p}`).sort());
    assert.equal(listCalls().length, 3);
  });

  it('answers 401 without a user, and asks the platform nothing', async () => {
    const handler = make();
    user = null;
    try {
      const body = await problemOf(await call(handler, '/api/connect/integrations'), 401);
      assert.equal(typeof body.detail, 'string');
    } finally {
      user = ADA;
    }
    assert.equal(counting.calls.length, 0);
  });

  it('answers a project the platform does not know as a misconfiguration, not as an empty list', async () => {
    const handler = make({ project: 'no-such-project' });
    const body = await problemOf(await call(handler, '/api/connect/integrations'), 502);
    assert.equal(body.type, 'urn:connect-provider:problem:misconfigured');
    assert.equal(body.retryable, false);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].kind, 'misconfigured');
    assert.match(errors[0].message, /404 to list-integrations for project "no-such-project" at .*: check baseUrl/);
    assert.equal(providerCalls().length, 0);
    assert.ok(!JSON.stringify(body).includes(new URL(baseUrl).host));
  });

  it('answers 405 to any method but GET, naming GET, and a preflight allows GET', async () => {
    const handler = make();
    for (const method of ['POST', 'PATCH', 'DELETE', 'PUT']) {
      const response = await call(handler, '/api/connect/integrations', { method });
      assert.equal(response.headers.get('allow'), 'GET', method);
      await problemOf(response, 405);
    }
    const preflight = await createConnectHandler({
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      authorize: () => ADA,
      allowedOrigins: ['http://other.test'],
    })(
      new Request('http://app.test/api/connect/integrations', {
        method: 'OPTIONS',
        headers: { origin: 'http://other.test', 'access-control-request-method': 'GET' },
      }),
    );
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-methods')!, /\bGET\b/);
    // A provider or a connection named "integrations" is still that route's.
    assert.equal((await call(handler, '/api/connect/providers/integrations')).status, 404);
    await problemOf(await call(handler, '/api/connect/connections/integrations'), 404);
    assert.ok(providerCalls().includes('/v1/providers/integrations'));
    assert.equal(listCalls().length, 0);
  });
});

describe('the integrations route against a platform double', () => {
  const { platform, errors, make, asked } = handlerOnPlatformDouble();

  const info = (name: string) => ({ name, displayName: `The ${name}`, authType: 'apiKey' });
  /** A platform whose integrations name `providers` (in order) and that answers each provider's info. */
  const answering =
    (providers: unknown[], provider: (name: string) => Reply = (name) => ({ body: info(name) })) =>
    (request: RecordedRequest): Reply => {
      if (request.path === '/v1/projects/demo/integrations')
        return { body: providers.map((p, i) => ({ id: `int_${i}`, projectId: 'proj', name: `i${i}`, provider: p })) };
      const name = /^\/v1\/providers\/([^/]+)$/.exec(request.path)?.[1];
      return name ? provider(decodeURIComponent(name)) : problemReply(500);
    };
  const providersAsked = () => asked().filter((r) => r.path.startsWith('/v1/providers/'));
  /** The providers asked about, sorted: they are asked all at once, so they may reach the platform in any order. */
  const askedAbout = () =>
    providersAsked()
      .map((r) => r.path.slice('/v1/providers/'.length))
      .sort();

  it('lists a provider behind several integrations once, at its first place, and asks about it once', async () => {
    const handler = make();
    platform.reply = answering(['slack', 'hubspot', 'slack', 'salesforce', 'hubspot', 'slack']);
    const list = await listOf(await call(handler, '/integrations'));
    assert.deepEqual(list, [
      { provider: 'slack', ...info('slack') },
      { provider: 'hubspot', ...info('hubspot') },
      { provider: 'salesforce', ...info('salesforce') },
    ]);
    assert.deepEqual(askedAbout(), ['hubspot', 'salesforce', 'slack']);
  });

  it('passes over an integration without a plain provider name, and never puts one into a platform path', async () => {
    const handler = make();
    platform.reply = (request) =>
      request.path === '/v1/projects/demo/integrations'
        ? {
            body: [
              { provider: 'slack' },
              null,
              'hubspot',
              { name: 'no provider' },
              { provider: 7 },
              { provider: '' },
              { provider: '..' },
              { provider: '../projects/demo' },
              { provider: 'a\u0000b' },
              { provider: 'x'.repeat(513) },
              Object.create({ provider: 'inherited' }),
              { provider: 'zendesk' },
            ],
          }
        : answering([])(request);
    const list = await listOf(await call(handler, '/integrations'));
    assert.deepEqual(
      list.map((entry) => entry.provider),
      ['slack', 'zendesk'],
    );
    assert.equal(providersAsked().length, 2);
  });

  it(
    `reads at most ${INTEGRATIONS_LIMIT.providers} providers of a platform that answers 100,000 integrations`,
    { timeout: 20_000 },
    async () => {
      // In memory (the fetch option), so that a handler without the cap fails here in seconds, not in minutes of
      // 100,000 loopback requests: past the cap, each provider call is answered 500, failing the route.
      const huge = Array.from({ length: 100_000 }, (_, i) => `p${i}`);
      const listBody = JSON.stringify(huge.map((provider, i) => ({ id: `int_${i}`, projectId: 'proj', provider })));
      let asked: string[] = [];
      const inMemory: typeof fetch = async (input) => {
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        if (path === '/v1/projects/demo/integrations')
          return new Response(listBody, { headers: { 'content-type': 'application/json' } });
        asked.push(path);
        if (asked.length > INTEGRATIONS_LIMIT.providers)
          return new Response('{"status":500,"title":"too many"}', {
            status: 500,
            headers: { 'content-type': 'application/problem+json' },
          });
        return Response.json(info(decodeURIComponent(path.slice('/v1/providers/'.length))));
      };
      const list = await listOf(await call(make({ fetch: inMemory }), '/integrations'));
      assert.equal(INTEGRATIONS_LIMIT.providers, 100);
      assert.deepEqual(
        list.map((entry) => entry.provider),
        huge.slice(0, 100),
      );
      assert.equal(asked.length, 100);
      // The cap counts the providers offered: behind an allow-list, the first 100 of those.
      asked = [];
      const allowed = Array.from({ length: 150 }, (_, i) => `p${i * 2}`);
      const narrowed = await listOf(await call(make({ providers: allowed, fetch: inMemory }), '/integrations'));
      assert.deepEqual(
        narrowed.map((entry) => entry.provider),
        allowed.slice(0, 100),
      );
      assert.equal(asked.length, 100);
    },
  );

  it('leaves out a provider the platform does not know, and asks it again next time', async () => {
    const handler = make();
    platform.reply = answering(['slack', 'retired', 'hubspot'], (name) =>
      name === 'retired' ? problemReply(404, { title: 'Not Found' }) : { body: info(name) },
    );
    for (let i = 0; i < 2; i++) {
      const list = await listOf(await call(handler, '/integrations'));
      assert.deepEqual(
        list.map((entry) => entry.provider),
        ['slack', 'hubspot'],
      );
    }
    assert.deepEqual(askedAbout(), ['hubspot', 'retired', 'retired', 'slack']);
    assert.deepEqual(errors, []);
  });

  it("fails the route with a provider's failure (never a short list), and keeps the others' info for the retry", async () => {
    const handler = make();
    let down = true;
    platform.reply = answering(['slack', 'zendesk', 'hubspot'], (name) =>
      name === 'zendesk' && down ? problemReply(503, {}, { 'retry-after': '1' }) : { body: info(name) },
    );
    const body = await problemOf(await call(handler, '/integrations'), 503);
    assert.equal(body.retryable, true);
    down = false;
    const list = await listOf(await call(handler, '/integrations'));
    assert.deepEqual(
      list.map((entry) => entry.provider),
      ['slack', 'zendesk', 'hubspot'],
    );
    // slack and hubspot were kept from the first request: only zendesk was asked again.
    assert.deepEqual(askedAbout(), ['hubspot', 'slack', 'zendesk', 'zendesk']);
    // A provider info that is no object fails the route too, reported to onError.
    errors.length = 0;
    platform.reply = answering(['notion'], () => ({ body: ['not', 'an', 'object'] }));
    const invalid = await problemOf(await call(handler, '/integrations'), 502);
    assert.equal(invalid.detail, 'the platform gave an unreadable answer');
    assert.equal(errors[0].kind, 'platform');
    assert.match(errors[0].message, /get-provider answered something other than an object/);
  });

  it('answers an unreachable platform or a list that is no array as a problem, and a 404 as a misconfiguration', async () => {
    const handler = make();
    platform.reply = () => ({ body: { integrations: [] } });
    const notArray = await problemOf(await call(handler, '/integrations'), 502);
    assert.equal(notArray.detail, 'the platform gave an unreadable answer');
    assert.match(errors.at(-1)!.message, /list-integrations answered something other than an array/);
    platform.reply = () => problemReply(404, { title: 'Not Found' });
    const missing = await problemOf(await call(handler, '/integrations'), 502);
    assert.equal(missing.type, 'urn:connect-provider:problem:misconfigured');
    platform.reply = () => ({ destroy: true });
    const gone = await problemOf(await call(handler, '/integrations'), 502);
    assert.equal(gone.detail, 'the platform could not be reached');
    assert.equal(gone.retryable, true);
    assert.equal(providersAsked().length, 0);
  });

  it('sends the browser no secret and no platform address, whatever the provider info holds', async () => {
    const handler = make();
    const address = new URL(platform.url).host;
    platform.reply = answering(['slack'], () => ({
      body: {
        ...info('slack'),
        displayName: 'Slack',
        apiKey: DOUBLE_KEY,
        oauth2Opts: { tokenURL: `${platform.url}/token?key=${DOUBLE_KEY}`, authURL: `${platform.url}/auth` },
        labels: { key: DOUBLE_KEY },
        media: { regular: { iconURL: 'javascript:alert(1)' } },
      },
    }));
    const text = JSON.stringify(await listOf(await call(handler, '/integrations')));
    assert.equal(
      text,
      JSON.stringify([{ provider: 'slack', name: 'slack', displayName: 'Slack', authType: 'apiKey' }]),
    );
    assert.ok(!text.includes(DOUBLE_KEY) && !text.includes(address));
  });

  it('asks no provider once the browser went away during the list', async () => {
    const handler = make();
    const reply = answering(['slack', 'hubspot']);
    platform.reply = (request) => ({ ...reply(request), delayMs: 150 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const response = await call(handler, '/integrations', { signal: controller.signal });
    assert.equal(response.status, 499);
    assert.equal(providersAsked().length, 0);
    assert.deepEqual(errors, []);
  });
});
