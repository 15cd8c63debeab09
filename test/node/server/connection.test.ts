// What of a platform Connection reaches the browser (src/server/connection.ts): the allow-listed fields, each only
// with its type.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { consumerRefOf, groupRefOf, toBrowserConnection } from '../../../src/server/connection.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { call } from '../helpers/handler-calls.js';
import { handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

describe("the platform's connections", () => {
  const { platform, errors, make, asked } = handlerOnPlatformDouble();
  it(
    'keeps strings up to 2048 characters, timestamps that parse up to 64, enum values the spec has, scopes within bounds',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const long = 'i'.repeat(2048);
      const stamp64 = `2026-01-01T00:00:00.${'0'.repeat(43)}Z`;
      const scope256 = 's'.repeat(256);
      const fits = {
        ...sampleConnection({ id: 'conn_1' }),
        provider: long,
        updateTime: stamp64,
        authScheme: 'apiKey',
        status: 'bad_credentials',
        providerWorkspaceRef: 'ws',
        providerConsumerRef: 'pc',
        providerApp: {
          id: 'app',
          externalRef: 'ext',
          scopes: [Array.from({ length: 256 }, () => scope256), ['a']],
          updateTime: '2026-02-01T00:00:00Z',
        },
      };
      platform.reply = () => ({ body: fits });
      const kept = await (await call(handler, '/connections/conn_1')).json();
      assert.equal(kept.provider, long);
      assert.equal(kept.updateTime, stamp64);
      assert.equal(kept.authScheme, 'apiKey');
      assert.equal(kept.status, 'bad_credentials');
      assert.deepEqual(kept.providerApp, fits.providerApp);
      assert.equal(kept.providerConsumerRef, 'pc');

      const over = {
        ...sampleConnection({ id: 'conn_1' }),
        provider: `${long}x`,
        createTime: `${stamp64.slice(0, -1)}0Z`,
        updateTime: 'yesterday',
        authScheme: 'bearer',
        status: 'deleted',
        providerApp: {
          id: 'app',
          scopes: [Array.from({ length: 257 }, () => 'a'), [`${scope256}s`], ['ok', 3], 'read', ['kept']],
        },
        consumer: ['u1'],
      };
      platform.reply = () => ({ body: over });
      const dropped = await (await call(handler, '/connections/conn_1')).json();
      for (const field of ['provider', 'createTime', 'updateTime', 'authScheme', 'status', 'consumer'])
        assert.ok(!(field in dropped), `${field}: ${JSON.stringify(dropped[field])}`);
      assert.deepEqual(dropped.providerApp.scopes, [['kept']]);
      platform.reply = () => ({
        body: {
          ...sampleConnection({ id: 'conn_1' }),
          providerApp: { id: 'app', scopes: Array.from({ length: 257 }, () => ['a']) },
        },
      });
      assert.deepEqual((await (await call(handler, '/connections/conn_1')).json()).providerApp, { id: 'app' });
      platform.reply = () => ({
        body: { ...sampleConnection({ id: 'conn_1' }), providerApp: { id: 'app', scopes: 'read write' } },
      });
      assert.deepEqual((await (await call(handler, '/connections/conn_1')).json()).providerApp, { id: 'app' });
    },
  );

  it(
    'lists newest first, those without a creation time last, only the asked provider, whatever the platform sends',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.reply = () => ({
        body: [
          sampleConnection({ id: 'undated', provider: 'slack', createTime: 'someday' }),
          sampleConnection({ id: 'old', provider: 'slack', createTime: '2026-01-01T00:00:00Z' }),
          sampleConnection({ id: 'notion', provider: 'notion', createTime: '2026-03-01T00:00:00Z' }),
          sampleConnection({ id: 'new', provider: 'slack', createTime: '2026-02-01T00:00:00Z' }),
        ],
      });
      const ids = async (path: string) => (await (await call(handler, path)).json()).map((c: { id: string }) => c.id);
      assert.deepEqual(await ids('/connections?provider=slack'), ['new', 'old', 'undated']);
      assert.deepEqual(await ids('/connections'), ['notion', 'new', 'old', 'undated']);
      assert.deepEqual(
        asked()[0].query,
        { groupRef: 'acme', provider: 'slack' },
        "the group's connections, of any consumer",
      );
    },
  );

  it(
    "lists only the user's own connections when asked, leaving out those with no consumer",
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const { consumer, ...noConsumer } = sampleConnection({ id: 'no-consumer' });
      platform.reply = () => ({
        body: [
          { ...sampleConnection({ id: 'mine' }), consumer: { ...consumer, consumerRef: 'user-ada' } },
          noConsumer,
          { ...sampleConnection({ id: 'null-consumer' }), consumer: null },
          sampleConnection({ id: 'other' }),
        ],
      });
      const response = await call(handler, '/connections?own=true');
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.deepEqual(
        JSON.parse(text).map((c: { id: string }) => c.id),
        ['mine'],
      );
    },
  );

  it('answers 502 and tells the server when the list is not an array', { timeout: 10_000 }, async () => {
    const handler = make();
    platform.reply = () => ({ body: { connections: [sampleConnection()] } });
    const body = await problemOf(await call(handler, '/connections'), 502);
    assert.equal(body.type, 'urn:connect-provider:problem:upstream');
    assert.equal(body.detail, 'the platform gave an unreadable answer');
    assert.equal(errors.length, 1);
    assert.equal(errors[0].kind, 'platform');
    assert.match(
      errors[0].message,
      /^GET \/connections answered 502: platform list-connections answered something other than an array$/,
    );
  });
});

describe('toBrowserConnection: each field only with its type', () => {
  it('drops every field of the wrong type, length or value, and everything not on the list', () => {
    const inherited = Object.create({ id: 'inherited-id' }) as Record<string, unknown>;
    Object.assign(inherited, {
      projectId: 5,
      provider: 'p'.repeat(2049),
      group: {
        groupRef: 'acme',
        groupName: ['n'],
        createTime: 'not a date',
        updateTime: `2026-01-01T00:00:00Z${' '.repeat(50)}`,
      },
      consumer: ['ada'],
      providerApp: {
        clientId: 'cid',
        clientSecret: 'secret',
        scopes: [['read', 'write'], 'admin', [1], ['s'.repeat(257)]],
      },
      createTime: '2026-01-01T00:00:00Z',
      updateTime: 12,
      authScheme: 'oauth2/implicit',
      status: 'working',
      providerWorkspaceRef: null,
      credentials: { token: 'secret' },
    });
    assert.deepEqual(toBrowserConnection(inherited), {
      group: { groupRef: 'acme' },
      providerApp: { clientId: 'cid', scopes: [['read', 'write']] },
      createTime: '2026-01-01T00:00:00Z',
      status: 'working',
    });
    assert.deepEqual(toBrowserConnection({ ...sampleConnection(), group: null, consumer: 'u1' }).group, undefined);
  });

  it('keeps a timestamp only as a string, not as a list holding one', () => {
    assert.deepEqual(
      toBrowserConnection({ createTime: ['2026-01-01T00:00:00Z'], updateTime: '2026-01-01T00:00:00Z' }),
      { updateTime: '2026-01-01T00:00:00Z' },
    );
  });

  it('keeps up to 256 scope lists, and only the lists that hold strings alone', () => {
    const many = Array.from({ length: 256 }, (_, i) => [`s${i}`]);
    assert.deepEqual(toBrowserConnection({ providerApp: { scopes: many } }), { providerApp: { scopes: many } });
    assert.deepEqual(toBrowserConnection({ providerApp: { scopes: [...many, ['one more']] } }), { providerApp: {} });
    assert.deepEqual(toBrowserConnection({ providerApp: { scopes: [['read'], [['read']], ['write']] } }), {
      providerApp: { scopes: [['read'], ['write']] },
    });
  });
});

describe('groupRefOf and consumerRefOf', () => {
  it("give a connection's group and consumer refs when they are strings, and undefined for anything else", () => {
    assert.equal(groupRefOf(sampleConnection()), 'acme');
    assert.equal(consumerRefOf(sampleConnection()), 'u1');
    for (const connection of [
      undefined,
      null,
      'conn_1',
      42,
      {},
      { group: null, consumer: null },
      { group: 'acme', consumer: 'u1' },
      { group: { groupRef: 42 }, consumer: { consumerRef: 42 } },
    ]) {
      assert.equal(groupRefOf(connection), undefined, JSON.stringify(connection));
      assert.equal(consumerRefOf(connection), undefined, JSON.stringify(connection));
    }
  });
});
