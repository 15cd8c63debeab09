// The providers allow-list holds on every route that takes a connection id (GET, PATCH, oauth-update, DELETE): a
// connection of the caller's own group but of a provider outside the list is answered 404 exactly like a connection
// that does not exist, and the platform is never asked to change it or re-authorize it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sampleConnection } from '../../shared/fixtures.js';
import { call, problemReply, urlReply } from '../helpers/handler-calls.js';
import type { RecordedRequest, Reply } from '../helpers/http-server.js';
import { handlerOnPlatformDouble } from '../helpers/platform-double.js';

const ROUTES = [
  ['GET', '/api/connect/connections/{id}', undefined],
  ['PATCH', '/api/connect/connections/{id}', { apiKey: 'k' }],
  ['PATCH', '/api/connect/connections/{id}:oauth-update', undefined],
  ['DELETE', '/api/connect/connections/{id}', undefined],
] as const;

describe('the providers allow-list on the routes that take a connection id', () => {
  const { platform, make, asked } = handlerOnPlatformDouble();
  /** The double: the caller's conn_in (apollo, allowed) and conn_out (salesforce, not); any other id is a 404. */
  const reply = (request: RecordedRequest): Reply => {
    const id = /^\/v1\/projects\/demo\/connections\/([^/:]+)/.exec(request.path)?.[1];
    if (request.path.startsWith('/v1/providers/')) return { body: { name: 'apollo', authType: 'apiKey' } };
    if (request.method === 'GET' && request.path.endsWith('/connections')) return { body: [] };
    const provider = id === 'conn_in' ? 'apollo' : id === 'conn_out' ? 'salesforce' : undefined;
    if (!provider) return problemReply(404, { detail: 'no such connection' });
    const connection = sampleConnection({ id, provider, authScheme: 'apiKey' });
    if (request.path.endsWith(':oauth-update')) return urlReply('https://consent.example/again');
    if (request.method === 'DELETE') return { status: 204 };
    return { body: connection };
  };
  const handler = () => make({ providers: ['apollo'], allowDisconnect: true });

  /** The answer's status and problem, without the fields that change per request. */
  async function answer(method: string, path: string, body: unknown) {
    const response = await call(handler(), path, { method, body });
    const text = await response.text();
    const { instance: _instance, time: _time, ...rest } = text ? JSON.parse(text) : {};
    return { status: response.status, rest };
  }

  for (const [method, path, body] of ROUTES) {
    it(`${method} ${path}: a connection of a provider outside the list is a 404 like a missing one`, async () => {
      platform.reply = reply;
      const missing = await answer(method, path.replace('{id}', 'conn_none'), body);
      platform.requests.length = 0;
      const outside = await answer(method, path.replace('{id}', 'conn_out'), body);
      assert.equal(outside.status, 404, JSON.stringify(outside));
      assert.deepEqual(outside, missing, 'told apart from a connection that does not exist');
      const changed = asked().filter((r) => r.method !== 'GET');
      assert.deepEqual(changed, [], 'the platform was asked to change it');
      assert.ok(!JSON.stringify(outside).includes('salesforce'));
    });
  }

  it('serves the same routes for a connection of an allowed provider', async () => {
    platform.reply = reply;
    const statuses = [];
    for (const [method, path, body] of ROUTES)
      statuses.push((await answer(method, path.replace('{id}', 'conn_in'), body)).status);
    assert.deepEqual(statuses, [200, 200, 200, 204]);
  });
});
