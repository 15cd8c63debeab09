// Who calls the routes (src/server/identify.ts): what authorize() may answer. A user is served, null is a 401, and
// anything else is the app's own mistake: a 500 that says the backend is misconfigured, which the browser does not
// retry, and one report naming what authorize() returned.
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sampleConnection } from '../../shared/fixtures.js';
import { call } from '../helpers/handler-calls.js';
import { ADA, DOUBLE_KEY, handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

const MISCONFIGURED = {
  type: 'urn:connect-provider:problem:misconfigured',
  title: 'Internal Server Error',
  status: 500,
  detail:
    'the connect backend is misconfigured: its authorize() returned neither a user nor null (the server log says what it returned)',
  retryable: false,
};
const USAGE =
  'authorize() must return { groupRef, consumerRef } as non-empty strings (groupName and consumerName optional), each at most 512 characters, or null for a caller who is not signed in';

describe('who is calling: authorize()', () => {
  let user: unknown = ADA;
  const { platform, errors, make, asked } = handlerOnPlatformDouble(() => user);
  beforeEach(() => {
    user = ADA;
  });

  /** The problem of a GET of a connection, without the time and instance that differ on each answer. */
  async function problemOfGet(handler: ReturnType<typeof make>) {
    const { time, instance, ...problem } = await problemOf(await call(handler, '/connections/c1'), 500);
    assert.equal(typeof time, 'string');
    assert.equal(typeof instance, 'string');
    return problem;
  }

  it('answers null with 401, and reports nothing: no one is signed in', { timeout: 10_000 }, async () => {
    user = null;
    const body = await problemOf(await call(make(), '/connections/c1'), 401);
    assert.equal(body.detail, 'sign in to connect an account');
    assert.deepEqual(errors, []);
    assert.equal(asked().length, 0);
  });

  it(
    'answers undefined (a forgotten return) with a 500 the browser does not retry, and reports it once',
    { timeout: 10_000 },
    async () => {
      user = undefined;
      const handler = make();
      assert.deepEqual(await problemOfGet(handler), MISCONFIGURED);
      assert.equal(errors.length, 1, 'one report for one request');
      assert.equal(errors[0].kind, 'authorize');
      assert.equal(errors[0].status, 500);
      assert.equal(
        errors[0].message,
        `GET /connections/c1 answered 500: authorize() returned undefined (is a \`return\` missing?): ${USAGE}`,
      );
      assert.equal(errors[0].error.name, 'TypeError');
      assert.equal(errors[0].error.message, errors[0].message.replace('GET /connections/c1 answered 500: ', ''));
      assert.equal(asked().length, 0, 'the platform is not asked');
    },
  );

  it('by default says it in one console.error line', { timeout: 10_000 }, async () => {
    user = undefined;
    const lines: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => lines.push(args);
    try {
      await problemOfGet(make({ onError: undefined }));
    } finally {
      console.error = original;
    }
    assert.deepEqual(lines, [
      [
        `[connect-provider] GET /connections/c1 answered 500: authorize() returned undefined (is a \`return\` missing?): ${USAGE}`,
      ],
    ]);
  });

  it(
    "tells the log what authorize() returned: its type, or an object's key names and faulty fields, never a value",
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const secret = 'hunter2-session-token';
      const cases: Array<[unknown, string]> = [
        [secret, 'returned a string'],
        [42, 'returned a number'],
        [true, 'returned a boolean'],
        [[ADA], 'returned an array of 1'],
        [Object.assign(() => ADA, ADA), 'returned a function'],
        // The app's own user object, where { groupRef, consumerRef } was meant.
        [
          { id: 7, email: secret, passwordHash: secret },
          'returned an object with keys [id, email, passwordHash] whose groupRef is missing, consumerRef is missing',
        ],
        [
          { groupRef: 7, consumerRef: '', groupName: [secret], consumerName: { secret } },
          'returned an object with keys [groupRef, consumerRef, groupName, consumerName] whose groupRef is a number, consumerRef is empty, groupName is an array, consumerName is an object',
        ],
        [
          { groupRef: null, consumerRef: 'c'.repeat(513) },
          'returned an object with keys [groupRef, consumerRef] whose groupRef is null, consumerRef is 513 characters long',
        ],
        [
          Object.fromEntries([...'abcdefghijkl'].map((key) => [key, secret])),
          'returned an object with keys [a, b, c, d, e, f, g, h, i, j, and 2 more] whose groupRef is missing, consumerRef is missing',
        ],
        [
          { [`${'k'.repeat(50)}`]: 1 },
          `returned an object with keys [${'k'.repeat(39)}…] whose groupRef is missing, consumerRef is missing`,
        ],
      ];
      for (const [value, told] of cases) {
        user = value;
        errors.length = 0;
        const response = await call(handler, '/connections/c1');
        const text = await response.clone().text();
        const { time: _time, instance: _instance, ...problem } = await problemOf(response, 500);
        assert.deepEqual(problem, MISCONFIGURED, told);
        assert.equal(errors.length, 1, told);
        assert.equal(errors[0].message, `GET /connections/c1 answered 500: authorize() ${told}: ${USAGE}`);
        assert.ok(!JSON.stringify(errors[0]).includes(secret), `no value of what authorize() returned: ${told}`);
        assert.ok(!text.includes(secret), `nothing of it in the answer: ${told}`);
      }
      assert.equal(asked().length, 0);
    },
  );

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

  it('serves the longest user it takes, and refuses one character more', { timeout: 10_000 }, async () => {
    const handler = make();
    const long = 'g'.repeat(513);
    for (const value of [
      { groupRef: long, consumerRef: 'u' },
      { groupRef: 'acme', consumerRef: long },
      { ...ADA, groupName: long },
      { ...ADA, consumerName: long },
      { ...ADA, groupName: 5 },
      { ...ADA, consumerName: {} },
    ]) {
      user = value;
      errors.length = 0;
      assert.deepEqual(await problemOfGet(handler), MISCONFIGURED, JSON.stringify(value).slice(0, 80));
      assert.equal(errors.length, 1);
      assert.equal(errors[0].kind, 'authorize');
    }
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
  });

  it('logs what authorize() threw on one line: its name and first line, or its type', { timeout: 10_000 }, async () => {
    let thrown: unknown = new RangeError(`session store down\n${'x'.repeat(300)}`);
    const handler = make({
      authorize: () => {
        throw thrown;
      },
    });
    const body = await problemOf(await call(handler, '/connections/c1'), 500);
    // A store that is down may be up again: this 500 is not marked, so the browser's usual retry of a 500 holds.
    assert.equal(body.detail, 'the app could not check who you are');
    assert.equal(body.retryable, undefined);
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
