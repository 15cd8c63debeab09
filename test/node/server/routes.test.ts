// The handler's routes (src/server/routes.ts) and who calls them (src/server/identify.ts): paths, methods, and what
// authorize() may answer.
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sampleConnection } from '../../shared/fixtures.js';
import { call, urlReply } from '../helpers/handler-calls.js';
import { ADA, DOUBLE_KEY, handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

describe('routes, methods and who is calling', () => {
  let user: unknown = ADA;
  const { platform, errors, make, asked } = handlerOnPlatformDouble(() => user);
  beforeEach(() => {
    user = ADA;
  });
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

  it("forwards the user's names only when authorize() gives them", { timeout: 10_000 }, async () => {
    user = { ...ADA, groupName: 'Acme Inc.', consumerName: 'Ada' };
    const handler = make();
    await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } });
    const named = JSON.parse(asked()[0].body);
    assert.equal(named.groupName, 'Acme Inc.');
    assert.equal(named.consumerName, 'Ada');
    user = { ...ADA, groupName: '', consumerName: null };
    await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } });
    const unnamed = JSON.parse(asked()[1].body);
    assert.ok(!('groupName' in unnamed) && !('consumerName' in unnamed), asked()[1].body);
  });

  it(
    'answers 500 and tells the server when authorize() returns a user it cannot use',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const long = 'g'.repeat(513);
      const unusable: unknown[] = [
        'acme',
        { groupRef: 'acme' },
        { groupRef: 'acme', consumerRef: '' },
        { groupRef: 7, consumerRef: 'u' },
        { groupRef: long, consumerRef: 'u' },
        { groupRef: 'acme', consumerRef: long },
        { ...ADA, groupName: long },
        { ...ADA, consumerName: long },
        { ...ADA, groupName: 5 },
        { ...ADA, consumerName: {} },
        { ...ADA, groupName: ['Acme'] },
        Object.assign(() => ADA, ADA),
      ];
      for (const value of unusable) {
        user = value;
        errors.length = 0;
        const body = await problemOf(await call(handler, '/connections/c1'), 500);
        assert.equal(body.detail, 'the app could not check who you are', JSON.stringify(value));
        assert.equal(errors.length, 1, JSON.stringify(value));
        assert.equal(errors[0].kind, 'authorize');
        assert.match(errors[0].message, /authorize\(\) must return null or \{ groupRef, consumerRef \}/);
      }
      assert.equal(asked().length, 0);
      platform.reply = () => ({ body: sampleConnection({ id: 'c1', groupRef: 'g'.repeat(512) }) });
      for (const value of [
        {
          groupRef: 'g'.repeat(512),
          consumerRef: 'c'.repeat(512),
          groupName: 'n'.repeat(512),
          consumerName: 'm'.repeat(512),
        },
        { ...ADA, groupRef: 'g'.repeat(512), groupName: null, consumerName: undefined },
      ]) {
        user = value;
        assert.equal((await call(handler, '/connections/c1')).status, 200, JSON.stringify(value).slice(0, 80));
      }
      user = undefined;
      await problemOf(await call(handler, '/connections/c1'), 401);
    },
  );

  it('logs what authorize() threw on one line: its name and first line, or its type', { timeout: 10_000 }, async () => {
    let thrown: unknown = new RangeError(`session store down\n${'x'.repeat(300)}`);
    const handler = make({
      authorize: () => {
        throw thrown;
      },
    });
    await problemOf(await call(handler, '/connections/c1'), 500);
    assert.equal(
      errors[0].message,
      'GET /connections/c1 answered 500: authorize() threw RangeError: session store down',
    );
    assert.deepEqual(
      { ...errors[0].error, stack: undefined },
      {
        name: 'RangeError',
        message: `session store down\n${'x'.repeat(300)}`,
        stack: undefined,
      },
    );
    thrown = `session ${'y'.repeat(300)}`;
    await problemOf(await call(handler, '/connections/c1'), 500);
    assert.equal(errors[1].message, 'GET /connections/c1 answered 500: authorize() threw string');
    thrown = new Error(`sessions unreachable with ${DOUBLE_KEY.toLowerCase()} and ${DOUBLE_KEY}`);
    await problemOf(await call(handler, '/connections/c1'), 500);
    assert.equal(
      errors.at(-1)!.message,
      'GET /connections/c1 answered 500: authorize() threw Error: sessions unreachable with [redacted] and [redacted]',
    );
    errors.splice(2);
    thrown = new Error('z'.repeat(300));
    await problemOf(await call(handler, '/connections/c1'), 500);
    assert.equal(errors[2].message, `GET /connections/c1 answered 500: authorize() threw Error: ${'z'.repeat(239)}…`);
  });

  it(
    'answers 500 "the connect handler failed" for an unexpected error, and tells the server',
    { timeout: 10_000 },
    async () => {
      user = {
        consumerRef: 'u',
        get groupRef(): string {
          throw new TypeError('groupRef getter broke');
        },
      };
      const handler = make();
      const body = await problemOf(await call(handler, '/connections/c1'), 500);
      assert.equal(body.detail, 'the connect handler failed');
      assert.equal(errors.length, 1);
      assert.equal(errors[0].kind, 'internal');
      assert.equal(errors[0].message, 'GET /connections/c1 answered 500: unexpected TypeError: groupRef getter broke');
    },
  );
});
