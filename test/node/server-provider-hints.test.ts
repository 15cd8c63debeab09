// oauth-connect's provider hints: providerWorkspaceRef is templated into the provider's hostnames, so it must be what
// a hostname may hold (isWorkspaceRef); providerAppId is an ID (isProviderAppId). Anything else is a 400 naming the
// field, and the platform is not asked.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { createConnectHandler, type ConnectHandler } from '../../src/server/index.js';
import { APP } from './helpers/handler-calls.js';
import { countingFetch, type CountingFetch } from './helpers/platform-calls.js';

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
