// The connection a create or an update answers is checked like get and list check theirs: an object of the
// Connection shape, of the caller's group. Anything else (another group's connection, an array, an object without an
// id) is the platform's fault: a 502 problem without the platform's address or the credential, told to onError.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sampleConnection } from '../../shared/fixtures.js';
import { call } from '../helpers/handler-calls.js';
import type { RecordedRequest, Reply } from '../helpers/http-server.js';
import { handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

const WRONG: Array<[string, unknown]> = [
  ["another group's connection", sampleConnection({ id: 'conn_x', provider: 'apollo', groupRef: 'other' })],
  ['a connection of no group', { ...sampleConnection({ id: 'conn_x', provider: 'apollo' }), group: undefined }],
  ['an array', [sampleConnection({ id: 'conn_x', provider: 'apollo' })]],
  ['an object without an id', { ...sampleConnection({ provider: 'apollo' }), id: undefined }],
  ['an object without a provider', { ...sampleConnection({ id: 'conn_x' }), provider: 42 }],
];

describe('the connection a create or an update answers', () => {
  const { platform, make, errors } = handlerOnPlatformDouble();
  /** The double: apollo's info, the caller's conn_1, and `made` for the credential call. */
  const answering =
    (made: unknown) =>
    (request: RecordedRequest): Reply => {
      if (request.path === '/v1/providers/apollo') return { body: { name: 'apollo', authType: 'apiKey' } };
      if (request.method === 'GET' && request.path === '/v1/projects/demo/connections/conn_1')
        return { body: sampleConnection({ id: 'conn_1', provider: 'apollo', authScheme: 'apiKey' }) };
      return { status: request.method === 'POST' ? 201 : 200, body: made as object };
    };

  for (const [what, made] of WRONG) {
    for (const [route, method, path, body] of [
      ['create', 'POST', '/api/connect/connections', { provider: 'apollo', apiKey: 'SECRET-answer-key-Xq81' }],
      ['update', 'PATCH', '/api/connect/connections/conn_1', { apiKey: 'SECRET-answer-key-Xq81' }],
    ] as const) {
      it(`${route}: ${what} is a 502, told to onError, with no address or secret`, async () => {
        platform.reply = answering(made);
        const response = await call(make(), path, { method, body });
        const text = JSON.stringify(await problemOf(response, 502));
        assert.equal(errors.length, 1, 'told to onError');
        assert.equal(errors[0].kind, 'platform');
        assert.match(errors[0].message, /answered something other than a connection/);
        const seen = `${text}\n${JSON.stringify(errors)}`;
        assert.ok(!seen.includes('SECRET-answer-key'), seen);
        assert.ok(!seen.includes(new URL(platform.url).host), `the platform's address: ${text}`);
        assert.ok(!text.includes('conn_x') && !text.includes('other'), `nothing of the answer: ${text}`);
      });
    }
  }

  it("still answers the caller's own connection: 201 for a create, 200 for an update", async () => {
    platform.reply = answering(sampleConnection({ id: 'conn_1', provider: 'apollo', authScheme: 'apiKey' }));
    const created = await call(make(), '/api/connect/connections', {
      method: 'POST',
      body: { provider: 'apollo', apiKey: 'k' },
    });
    assert.equal(created.status, 201, await created.clone().text());
    assert.equal((await created.json()).id, 'conn_1');
    const updated = await call(make(), '/api/connect/connections/conn_1', { method: 'PATCH', body: { apiKey: 'k' } });
    assert.equal(updated.status, 200, await updated.clone().text());
    assert.equal(errors.length, 0);
  });
});
