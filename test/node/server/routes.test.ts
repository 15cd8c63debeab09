// The handler's routes (src/server/routes.ts): paths and methods. Who calls them (src/server/identify.ts) is in
// identify.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sampleConnection } from '../../shared/fixtures.js';
import { call, urlReply } from '../helpers/handler-calls.js';
import { handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

describe('routes and methods', () => {
  const { platform, make, asked } = handlerOnPlatformDouble();
  it('serves each route with or without a trailing slash, and nothing past it', { timeout: 10_000 }, async () => {
    const handler = make();
    platform.reply = (request) => {
      if (request.method !== 'GET') return urlReply('https://consent.example/u');
      return { body: request.path.endsWith('/connections') ? [] : sampleConnection({ id: 'c1' }) };
    };
    const served: Array<[string, string]> = [
      ['POST', '/x/oauth-connect/'],
      ['GET', '/x/connections/'],
      ['GET', '/x/connections/c1/'],
      ['PATCH', '/x/connections/c1:oauth-update/'],
    ];
    for (const [method, path] of served) {
      const response = await call(handler, path, {
        method,
        ...(method === 'POST' ? { body: { provider: 'slack' } } : {}),
      });
      assert.equal(response.status, 200, `${method} ${path}`);
    }
    for (const path of [
      '/x/oauth-connectx',
      '/x/connections/c1/more',
      '/x/connections//',
      '/x/connectionsx',
      '/x/oauth-connect/x',
      '/x/connections/c1:oauth-update/more',
      '/x/providers/slack/more',
      '/x/integrations/more',
      '/x/integrationsx',
    ]) {
      const body = await problemOf(await call(handler, path), 404);
      assert.equal(body.detail, 'no such connect route', path);
    }
  });

  it('answers 405 naming the allowed methods of each route', { timeout: 10_000 }, async () => {
    const handler = make();
    for (const [path, allowed] of [
      ['/connections/c1:oauth-update', 'PATCH'],
      ['/connections', 'GET, POST'],
      ['/connections/c1', 'GET, PATCH'],
      ['/oauth-connect', 'POST'],
      ['/integrations', 'GET'],
      ['/providers/slack', 'GET'],
    ]) {
      const response = await call(handler, path, { method: 'PUT' });
      assert.equal(response.headers.get('allow'), allowed, path);
      const body = await problemOf(response, 405);
      assert.equal(body.detail, `PUT is not allowed here; allowed: ${allowed}`);
    }
    const long = await problemOf(await call(handler, '/connections', { method: 'PROPFIND-PROPFIND-PROPFIND' }), 405);
    assert.equal(long.detail, 'PROPFIND-PROPFIND-PR is not allowed here; allowed: GET, POST');
    assert.equal(asked().length, 0);
  });
});
