// The credential routes of the handler (POST and PATCH {endpoint}/connections): group and consumer from authorize,
// only the kind the provider's scheme takes, bounded values, another group's connection untouched, and the
// credential passed to the platform once and found nowhere else, even when the platform's error text repeats it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
} from '../../../src/server/index.js';
import { CREDENTIAL_KINDS } from '../../../src/shared/sign-in.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { APP, problemReply } from '../helpers/handler-calls.js';
import { startTestServer, type RecordedRequest, type Reply } from '../helpers/http-server.js';
import { ADA, handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';
import { countingFetch, type CountingFetch } from '../helpers/platform-calls.js';

const API_KEY = 'credential-route-key-8Hw2';
const SESSIONS: Record<string, { groupRef: string; consumerRef: string }> = {
  ada: { groupRef: 'acme', consumerRef: 'user-ada' },
  otto: { groupRef: 'other', consumerRef: 'user-otto' },
};
const authorize: ConnectHandlerOptions['authorize'] = (request) => {
  const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return (sid && SESSIONS[sid]) || null;
};

function send(handler: ConnectHandler, method: string, path: string, body: unknown, user = 'ada') {
  return handler(
    new Request(`${APP}/api/connect${path}`, {
      method,
      headers: { 'sec-fetch-site': 'same-origin', cookie: `sid=${user}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** A unique marker for one test's secret. */
const marker = (what: string) => `SECRET-${what}-${Math.random().toString(36).slice(2, 10)}`;

describe('the credential routes', () => {
  let emulator: Emulator;
  let handler: ConnectHandler;
  let counting: CountingFetch;
  const errors: ConnectHandlerErrorInfo[] = [];

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    const { baseUrl } = await emulator.listen();
    counting = countingFetch();
    handler = createConnectHandler({
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      authorize,
      retry: false,
      fetch: counting.fetch,
      onError: (info) => void errors.push(info),
    });
  });
  after(() => emulator.close());

  const stored = (id: string) => emulator.state.connections.find((c) => c.id === id);

  describe('POST {endpoint}/connections', () => {
    it('should make an API key connection for the caller, answer it without the key, and hand the key to the platform', async () => {
      const key = marker('apollo');
      const response = await send(handler, 'POST', '/connections', {
        provider: 'apollo',
        apiKey: key,
        groupRef: 'forged',
      });
      const text = await response.text();
      assert.equal(response.status, 201, text);
      assert.ok(!text.includes(key), 'the answer holds no key');
      const connection = JSON.parse(text);
      assert.equal(connection.provider, 'apollo');
      assert.equal(connection.group.groupRef, 'acme', 'the group is authorize()’s, not the body’s');
      assert.equal(connection.consumer.consumerRef, 'user-ada');
      assert.ok(JSON.stringify(stored(connection.id)?.credentials).includes(key), 'the platform has the key');
    });

    it('should send each scheme in its own shape: basic, the key as basic, client credentials, custom inputs', async () => {
      for (const [provider, credential] of [
        ['cloudtalk', { basicAuth: { username: 'u', password: marker('pw') } }],
        ['insightly', { basicAuth: { username: marker('key'), password: '' } }],
        ['paypal', { oauth2ClientCredentials: { clientId: 'id', clientSecret: marker('secret') } }],
        ['clariCopilot', { customAuth: { apiKey: 'k', apiSecret: marker('secret') } }],
      ] as const) {
        const response = await send(handler, 'POST', '/connections', { provider, ...credential });
        assert.equal(response.status, 201, `${provider}: ${await response.clone().text()}`);
        const { id } = await response.json();
        assert.deepEqual(Object.values(stored(id)!.credentials!)[0], Object.values(credential)[0], provider);
      }
    });

    it('should refuse a credential kind the provider does not take, naming the field, and never ask the platform', async () => {
      const before = counting.calls.filter((c) => c.method === 'POST').length;
      for (const [provider, credential, name] of [
        ['apollo', { basicAuth: { username: 'u', password: 'p' } }, 'basicAuth'],
        ['cloudtalk', { apiKey: 'k' }, 'apiKey'],
        ['salesforce', { apiKey: 'k' }, 'apiKey'],
        ['apollo', {}, 'apiKey'],
        ['salesforce', {}, 'provider'],
      ] as const) {
        const response = await send(handler, 'POST', '/connections', { provider, ...credential });
        const problem = await response.json();
        assert.equal(response.status, 400, `${provider} ${name}`);
        assert.equal(problem.issues[0].name, name, JSON.stringify(problem));
      }
      assert.equal(counting.calls.filter((c) => c.method === 'POST').length, before, 'the platform was never asked');
    });

    it('should refuse two credentials, a wrong shape and a value over 4,096 characters, without echoing it', async () => {
      const long = `${marker('long')}${'x'.repeat(4096)}`;
      for (const [body, name] of [
        [{ provider: 'apollo', apiKey: 'a', basicAuth: { username: 'u', password: 'p' } }, 'basicAuth'],
        [{ provider: 'apollo', apiKey: 42 }, 'apiKey'],
        [{ provider: 'cloudtalk', basicAuth: 'u:p' }, 'basicAuth'],
        [{ provider: 'cloudtalk', basicAuth: { username: 'u' } }, 'basicAuth.password'],
        [{ provider: 'apollo', apiKey: long }, 'apiKey'],
        [{ provider: 'clariCopilot', customAuth: { apiKey: long, apiSecret: 's' } }, 'customAuth.apiKey'],
      ] as const) {
        const response = await send(handler, 'POST', '/connections', body);
        const text = await response.text();
        assert.equal(response.status, 400, text);
        assert.equal(JSON.parse(text).issues[0].name, name, text);
        assert.ok(!text.includes('SECRET-long'), 'no value echoed');
      }
      const fits = await send(handler, 'POST', '/connections', { provider: 'apollo', apiKey: 'k'.repeat(4096) });
      assert.equal(fits.status, 201, 'exactly 4,096 characters fit');
    });
  });

  describe('PATCH {endpoint}/connections/{id}', () => {
    it('should send the new credential with updateMask naming its kind, and the connection changes', async () => {
      const made = await (
        await send(handler, 'POST', '/connections', { provider: 'apollo', apiKey: 'invalid-old' })
      ).json();
      const key = marker('new');
      const calls = counting.calls.length;
      const response = await send(handler, 'PATCH', `/connections/${made.id}`, { apiKey: key });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.ok(!text.includes(key));
      const patch = counting.calls.slice(calls).find((c) => c.method === 'PATCH');
      assert.equal(patch?.path, `/v1/projects/demo/connections/${made.id}`);
      assert.equal(stored(made.id)?.credentials && JSON.stringify(stored(made.id)!.credentials).includes(key), true);
    });

    it("should answer 404 for another group's connection, and never ask the platform to change it", async () => {
      const theirs = await (
        await send(handler, 'POST', '/connections', { provider: 'apollo', apiKey: 'otto-key' }, 'otto')
      ).json();
      const calls = counting.calls.length;
      const response = await send(handler, 'PATCH', `/connections/${theirs.id}`, { apiKey: marker('ada') });
      assert.equal(response.status, 404);
      assert.ok(!counting.calls.slice(calls).some((c) => c.method === 'PATCH'), 'no update asked');
      assert.ok(JSON.stringify(stored(theirs.id)!.credentials).includes('otto-key'));
    });

    it('should refuse a kind the connection’s provider does not take, and a body with no credential', async () => {
      const made = await (await send(handler, 'POST', '/connections', { provider: 'apollo', apiKey: 'k' })).json();
      const wrong = await send(handler, 'PATCH', `/connections/${made.id}`, {
        basicAuth: { username: 'u', password: 'p' },
      });
      assert.equal(wrong.status, 400);
      assert.equal((await wrong.json()).issues[0].name, 'basicAuth');
      const none = await send(handler, 'PATCH', `/connections/${made.id}`, {});
      assert.equal(none.status, 400);
    });
  });
});

describe('a credential the platform repeats in its error', () => {
  it('should appear in no answer, problem, log line or onError value', async () => {
    const key = marker('echoed');
    const platform = await startTestServer((request) => {
      if (request.path.startsWith('/v1/providers/')) return { body: { name: 'apollo', authType: 'apiKey' } };
      const sent = request.body;
      // The platform repeats what it was sent, as a careless service might: in a 400's detail, a 500's title.
      return request.path.endsWith(':generate') && sent.includes('"bad"')
        ? problemReply(400, {
            detail: `the key ${key} is malformed (${encodeURIComponent(key)})`,
            issues: [{ in: 'body', name: 'apiKey', detail: `bad ${key}`, value: key }],
          })
        : problemReply(500, { title: `failed with ${key}`, detail: `the key ${key} broke us` });
    });
    const infos: ConnectHandlerErrorInfo[] = [];
    const logged: string[] = [];
    const realError = console.error;
    console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
    try {
      const handler = createConnectHandler({
        apiKey: API_KEY,
        baseUrl: `${platform.url}/v1`,
        project: 'demo',
        authorize,
        retry: false,
        onError: (info) => void infos.push(info),
      });
      const refused = await send(handler, 'POST', '/connections', {
        provider: 'apollo',
        apiKey: key,
        providerWorkspaceRef: 'bad',
      });
      const failed = await send(handler, 'POST', '/connections', { provider: 'apollo', apiKey: key });
      const texts = [await refused.text(), await failed.text()];
      assert.equal(refused.status, 400, texts[0]);
      assert.equal(failed.status, 502, texts[1]);
      assert.equal(infos.length, 1, 'the 5xx was told to onError');
      const seen = [
        ...texts,
        ...logged,
        ...infos.map(
          (info) =>
            `${info.message} ${JSON.stringify(info.error)} ${String((info.error as Error)?.message)} ${String((info.error as Error)?.stack)}`,
        ),
        ...infos.map((info) => JSON.stringify(info.error, Object.getOwnPropertyNames(info.error ?? {}))),
      ].join('\n');
      assert.ok(!seen.includes(key), `the key leaked: ${seen}`);
      assert.ok(!seen.includes(encodeURIComponent(key)));
      assert.ok(
        platform.requests.some((r) => r.body.includes(key)),
        'while the platform did get it',
      );
    } finally {
      console.error = realError;
      await platform.close();
    }
  });
});

describe('a basic credential the platform repeats escaped, in capitals or as basic auth', () => {
  it('should be hidden in every form in the answer, the log line and onError', async () => {
    const password = `p"w\\${marker('basic')}`;
    const username = 'someone';
    const basic = btoa(`${username}:${password}`);
    const platform = await startTestServer((request) => {
      if (request.path.startsWith('/v1/providers/')) return { body: { name: 'cloudtalk', authType: 'basic' } };
      // It repeats the body it got (JSON-escaped), the password in capitals, and the Authorization it would send.
      return problemReply(500, { title: 'Failed', detail: `${request.body} ${password.toUpperCase()} Basic ${basic}` });
    });
    const infos: ConnectHandlerErrorInfo[] = [];
    try {
      const handler = createConnectHandler({
        apiKey: API_KEY,
        baseUrl: `${platform.url}/v1`,
        project: 'demo',
        authorize,
        retry: false,
        onError: (info) => void infos.push(info),
      });
      const response = await send(handler, 'POST', '/connections', {
        provider: 'cloudtalk',
        basicAuth: { username, password },
      });
      const text = await response.text();
      assert.equal(response.status, 502, text);
      assert.equal(infos.length, 1);
      const seen = [text, infos[0].message, JSON.stringify(infos[0].error)].join('\n');
      const secret = password.slice(4);
      for (const form of [secret, secret.toUpperCase(), basic, JSON.stringify(password).slice(1, -1)])
        assert.ok(!seen.includes(form), `${form} leaked: ${seen}`);
      assert.ok(
        platform.requests.some((r) => r.body.includes(JSON.stringify(password))),
        'the platform got it',
      );
    } finally {
      await platform.close();
    }
  });
});

describe('a generate connection that got no answer in time', () => {
  it('should be a problem the browser does not retry: the connection may have been made', async () => {
    const platform = await startTestServer((request) =>
      request.path.startsWith('/v1/providers/')
        ? { body: { name: 'apollo', authType: 'apiKey' } }
        : { delayMs: 1500, body: {} },
    );
    try {
      const handler = createConnectHandler({
        apiKey: API_KEY,
        baseUrl: `${platform.url}/v1`,
        project: 'demo',
        authorize,
        timeoutMs: 300,
        onError: () => {},
      });
      const response = await send(handler, 'POST', '/connections', { provider: 'apollo', apiKey: 'k' });
      const problem = await response.json();
      assert.equal(response.status, 504, JSON.stringify(problem));
      assert.equal(problem.retryable, false);
      assert.equal(platform.requests.filter((r) => r.method === 'POST').length, 1, 'sent once');
    } finally {
      await platform.close();
    }
  });
});

describe('the credential calls to the platform', () => {
  const user = { ...ADA, groupName: 'Acme Inc', consumerName: 'Ada Lovelace' };
  const { platform, make, errors } = handlerOnPlatformDouble(() => user);
  const infos: Record<string, unknown> = {
    apollo: { name: 'apollo', authType: 'apiKey' },
    open: { name: 'open', authType: 'none' },
  };
  /**
   * The double: provider infos, the caller's group's connection conn_1 of `provider`, and `other` for everything
   * else.
   */
  const answering =
    (other: (request: RecordedRequest) => Reply, provider = 'apollo') =>
    (request: RecordedRequest) => {
      const asked = /^\/v1\/providers\/([^/]+)$/.exec(request.path)?.[1];
      if (asked) return infos[asked] ? { body: infos[asked] } : problemReply(404);
      if (request.method === 'GET' && request.path === '/v1/projects/demo/connections/conn_1')
        return {
          body: sampleConnection({ id: 'conn_1', provider, authScheme: provider === 'open' ? 'none' : 'apiKey' }),
        };
      return other(request);
    };
  const made = (body: Record<string, unknown> = {}): Reply => ({
    status: 201,
    body: sampleConnection({ id: 'conn_new', provider: 'apollo', ...body }),
  });
  /** The handler's answer to the signed-in browser (the double's authorize() answers `user` whoever asks). */
  const call = (method: string, path: string, body: unknown) => send(make(), method, path, body);
  /** Everything the browser and the developer see of the last call: its answer's text and onError's values. */
  const seen = (text: string) =>
    [text, ...errors.map((info) => `${info.message} ${JSON.stringify(info.error)}`)].join('\n');

  it("should name the group and consumer as authorize() does, the body's never", async () => {
    platform.reply = answering(() => made());
    const response = await call('POST', '/connections', {
      provider: 'apollo',
      apiKey: 'k',
      groupRef: 'forged',
      groupName: 'Forged',
    });
    assert.equal(response.status, 201, await response.clone().text());
    const generate = platform.requests.find((r) => r.path.endsWith('connections:generate'))!;
    const body = JSON.parse(generate.body);
    assert.deepEqual(
      [body.groupRef, body.groupName, body.consumerRef, body.consumerName],
      ['acme', 'Acme Inc', 'user-ada', 'Ada Lovelace'],
    );
  });

  it('should call a 404 of generate a misconfigured handler, with the credential hidden from onError', async () => {
    const key = marker('404');
    platform.reply = answering(() => problemReply(404, { detail: `no project for key ${key}` }));
    const response = await call('POST', '/connections', { provider: 'apollo', apiKey: key });
    const text = await response.text();
    assert.equal(response.status, 502, text);
    assert.equal(JSON.parse(text).type, 'urn:connect-provider:problem:misconfigured');
    assert.equal(errors.length, 1);
    assert.ok(!seen(text).includes(key), seen(text));
  });

  it('should not let the browser send again a generate whose answer was lost, but one the platform said it did not do', async () => {
    for (const [reply, retryable] of [
      [{ destroy: true }, false],
      [problemReply(503), true],
    ] as const) {
      platform.reply = answering(() => reply);
      const response = await call('POST', '/connections', { provider: 'apollo', apiKey: 'k' });
      const problem = await response.json();
      assert.equal(problem.retryable, retryable, `${JSON.stringify(reply)}: ${JSON.stringify(problem)}`);
    }
  });

  it('should hide the new credential when an update fails, and let an update whose answer was lost be sent again', async () => {
    const key = marker('update');
    platform.reply = answering(() => problemReply(500, { detail: `failed storing ${key}` }));
    const response = await call('PATCH', '/connections/conn_1', { apiKey: key });
    const text = await response.text();
    assert.equal(response.status, 502, text);
    assert.ok(!seen(text).includes(key), seen(text));
    assert.ok(
      platform.requests.some((r) => r.method === 'PATCH' && r.body.includes(key)),
      'while the platform got it',
    );
    platform.reply = answering(() => ({ destroy: true }));
    const lost = await (await call('PATCH', '/connections/conn_1', { apiKey: 'k' })).json();
    assert.equal(lost.retryable, true, `an update sent twice leaves what the first did: ${JSON.stringify(lost)}`);
  });

  it('should connect a provider that takes nothing with no credential, and refuse an update without one', async () => {
    platform.reply = answering(() => made({ provider: 'open' }));
    const created = await call('POST', '/connections', { provider: 'open' });
    assert.equal(created.status, 201, await created.clone().text());
    const generate = JSON.parse(platform.requests.find((r) => r.path.endsWith('connections:generate'))!.body);
    assert.deepEqual(
      CREDENTIAL_KINDS.filter((kind) => kind in generate),
      [],
    );
    platform.reply = answering(() => made({ provider: 'open' }), 'open');
    const update = await problemOf(await call('PATCH', '/connections/conn_1', {}), 400);
    assert.equal(update.detail, '(root) must hold the new credential');
    const notObject = await problemOf(await call('PATCH', '/connections/conn_1', '"text"'), 400);
    assert.equal(notObject.detail, '(root) must be a JSON object');
    assert.ok(!platform.requests.some((r) => r.method === 'PATCH'), 'no update asked');
  });
});
