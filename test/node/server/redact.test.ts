// What onError is handed of what was thrown (src/server/redact.ts): a plain object of named fields (name, message,
// status, title, detail, requestId, code, stack, cause), at most 4 causes deep, never the thrown value; every string in
// it with the API key and any other secret replaced by [redacted], in any case and URL-encoded.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformRequestError, ProblemError } from '../../../src/api/errors.js';
import { createRedactor, MAX_CAUSES, reportedError } from '../../../src/server/redact.js';

const KEY = 'Sk/Live+Key';
const redact = createRedactor([KEY]);
const report = (thrown: unknown) => reportedError(thrown, redact);

describe('createRedactor', () => {
  it('replaces the key in any case and URL-encoded, and leaves a text without it as it is', () => {
    assert.equal(
      redact(`a ${KEY} b ${KEY.toUpperCase()} c ${KEY.toLowerCase()}`),
      'a [redacted] b [redacted] c [redacted]',
    );
    assert.equal(redact(`?key=${encodeURIComponent(KEY)}&x`), '?key=[redacted]&x');
    assert.equal(redact(`?key=${encodeURIComponent(KEY).toLowerCase()}`), '?key=[redacted]');
    assert.equal(redact('no secret here'), 'no secret here');
  });

  it('replaces the whole URL-encoded form of a key that begins its own encoding (a key ending in %)', () => {
    const percent = createRedactor(['Zk9-secret%']);
    assert.equal(percent('?k=Zk9-secret%25&x'), '?k=[redacted]&x');
    assert.equal(percent('k=Zk9-SECRET% and k=zk9-secret%25'), 'k=[redacted] and k=[redacted]');
  });

  it("replaces every secret it is given (a user's credential beside the key); an empty one is no secret", () => {
    const both = createRedactor([KEY, 'hunter2 pass', '']);
    assert.equal(both(`${KEY} and hunter2 pass and hunter2%20pass`), '[redacted] and [redacted] and [redacted]');
    assert.equal(createRedactor(['', ''])('kept'), 'kept');
    assert.equal(createRedactor([])('kept'), 'kept');
  });
});

describe('reportedError', () => {
  it('tells an error as a plain object of its name, message and stack, the key replaced in each', () => {
    class SessionStoreError extends Error {
      override name = 'SessionStoreError';
    }
    const error = new SessionStoreError(`store refused ${KEY}`);
    const told = report(error);
    assert.equal(Object.getPrototypeOf(told), Object.prototype, 'a plain object, not the class');
    assert.ok(!(told instanceof Error));
    assert.deepEqual(Object.keys(told), ['name', 'message', 'stack']);
    assert.equal(told.name, 'SessionStoreError');
    assert.equal(told.message, 'store refused [redacted]');
    assert.match(told.stack!, /^SessionStoreError: store refused \[redacted\]\n\s+at /);
    assert.ok(!told.stack!.includes(KEY));
    assert.deepEqual(JSON.parse(JSON.stringify(told)), told, 'JSON holds all of it');
    assert.equal(error.message, `store refused ${KEY}`, 'what was thrown is untouched');
  });

  it("tells a platform problem's status, title, detail and request ID, and nothing else of it", () => {
    const problem = new ProblemError({
      status: 500,
      title: `bad key ${KEY}`,
      detail: `the key ${encodeURIComponent(KEY)} was refused`,
      requestId: 'req_42',
      instance: `https://platform.example/v1/x?key=${KEY}`,
      context: { apiKey: KEY },
      issues: [{ detail: 'x', value: KEY }],
    });
    const told = report(problem);
    assert.deepEqual(
      { ...told, stack: undefined },
      {
        name: 'ProblemError',
        message: '500 bad key [redacted]: the key [redacted] was refused',
        status: 500,
        title: 'bad key [redacted]',
        detail: 'the key [redacted] was refused',
        requestId: 'req_42',
        stack: undefined,
      },
    );
    assert.ok(!JSON.stringify(told).toLowerCase().includes(KEY.toLowerCase()));
  });

  it('follows the cause chain, with a code where there is one and the key replaced at every level', () => {
    const reset = Object.assign(new Error(`read ECONNRESET ${KEY}`), { code: 'ECONNRESET' });
    const failed = new TypeError('fetch failed', { cause: reset });
    const told = report(new PlatformRequestError('network', `no answer from ${KEY}`, { cause: failed }));
    assert.equal(told.name, 'PlatformRequestError');
    assert.equal(told.code, 'network');
    assert.equal(told.message, 'no answer from [redacted]');
    assert.equal(told.cause?.name, 'TypeError');
    assert.equal(told.cause?.message, 'fetch failed');
    assert.equal(told.cause?.cause?.code, 'ECONNRESET');
    assert.equal(told.cause?.cause?.message, 'read ECONNRESET [redacted]');
    assert.ok(!told.cause?.cause?.stack?.includes(KEY));
    assert.equal(told.cause?.cause?.cause, undefined);
  });

  it("replaces a user's credential the platform echoed, beside the key", () => {
    const told = reportedError(
      new ProblemError({ status: 502, title: 'Bad Gateway', detail: `apollo refused hunter2-Secret for ${KEY}` }),
      createRedactor([KEY, 'hunter2-Secret']),
    );
    assert.equal(told.detail, 'apollo refused [redacted] for [redacted]');
    assert.ok(!JSON.stringify(told).includes('hunter2'));
  });

  it(`tells at most ${MAX_CAUSES} causes below the error, and ends a cause that loops`, () => {
    assert.equal(MAX_CAUSES, 4);
    let chain: unknown = new Error('level 10');
    for (let level = 9; level >= 0; level--) chain = new Error(`level ${level}`, { cause: chain });
    const messages: string[] = [];
    for (let told: ReturnType<typeof report> | undefined = report(chain); told; told = told.cause)
      messages.push(told.message);
    assert.deepEqual(messages, ['level 0', 'level 1', 'level 2', 'level 3', 'level 4']);
    const looping = new Error('me');
    looping.cause = looping;
    let depth = 0;
    for (let told: ReturnType<typeof report> | undefined = report(looping); told; told = told.cause) depth++;
    assert.equal(depth, 5);
  });

  it('tells a thrown value that is not an object by its type and text, and a function by its type only', () => {
    assert.deepEqual(report(`session ${KEY} gone`), { name: 'string', message: 'session [redacted] gone' });
    assert.deepEqual(report(42), { name: 'number', message: '42' });
    assert.deepEqual(report(undefined), { name: 'undefined', message: 'undefined' });
    assert.deepEqual(report(null), { name: 'null', message: 'null' });
    assert.deepEqual(report(Symbol('s')), { name: 'symbol', message: 'Symbol(s)' });
    assert.deepEqual(
      report(() => KEY),
      { name: 'function', message: '' },
    );
  });

  it('reads an object that is no Error by the same fields, each of its type, and nothing else of it', () => {
    assert.deepEqual(
      report({ message: `expired ${KEY}`, code: 'ESESSION', status: 401, token: KEY, nested: { KEY } }),
      {
        name: 'object',
        message: 'expired [redacted]',
        status: 401,
        code: 'ESESSION',
      },
    );
    assert.deepEqual(report({ name: 'AbortError' }), { name: 'AbortError', message: '' });
    assert.deepEqual(report({ name: 7, message: ['x'], status: '500', code: 20, stack: {}, detail: null }), {
      name: 'object',
      message: '',
    });
    assert.deepEqual(report({ cause: `why ${KEY}` }), {
      name: 'object',
      message: '',
      cause: { name: 'string', message: 'why [redacted]' },
    });
  });

  it('reads a field whose getter throws as absent, and never throws itself', () => {
    const getter = {
      message: 'kept',
      get detail(): string {
        throw new Error('no');
      },
    };
    assert.deepEqual(report(getter), { name: 'object', message: 'kept' });
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    assert.deepEqual(report(hostile), { name: 'object', message: '' });
  });
});
