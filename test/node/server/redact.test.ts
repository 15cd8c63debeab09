// What onError may be handed (src/server/redact.ts): a value that holds the API key, in any case or URL-encoded, at
// any depth, becomes a copy without it (keeping an error's class); a value that does not is handed on as it is; what a
// copy cannot look into (getters, symbols, foreign classes, functions, depth past 8) is copied, never trusted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor } from '../../../src/server/redact.js';

const KEY = 'Sk/Live+Key';
const redact = createRedactor(KEY);
const holds = (value: unknown) => JSON.stringify(value)?.toLowerCase().includes('sk/live+key') ?? false;

describe('createRedactor', () => {
  it('hands on a value without the key as it is: the same object, array or error', () => {
    const plain = { a: 'x', b: [1, { c: 'y' }] };
    const list = ['x', { y: 1 }];
    const error = new Error('no key here', { cause: { status: 500 } });
    assert.equal(redact(plain), plain);
    assert.equal(redact(list), list);
    assert.equal(redact(error), error);
    assert.equal(redact('text'), 'text');
    assert.equal(redact(7), 7);
    assert.equal(redact(null), null);
  });

  it('replaces the key in any case and URL-encoded, in strings, arrays and nested objects', () => {
    assert.equal(redact(`a ${KEY} b ${KEY.toUpperCase()}`), 'a [redacted] b [redacted]');
    assert.equal(redact(`?key=${encodeURIComponent(KEY)}&x`), '?key=[redacted]&x');
    const copy = redact({ list: [`k=${KEY}`, 2, { deep: KEY }], other: 'kept', n: 1, flag: true, none: null });
    assert.deepEqual(copy, {
      list: ['k=[redacted]', 2, { deep: '[redacted]' }],
      other: 'kept',
      n: 1,
      flag: true,
      none: null,
    });
    assert.ok(Array.isArray(copy.list));
  });

  it('replaces the whole URL-encoded form of a key that begins its own encoding (a key ending in %)', () => {
    const percent = createRedactor('Zk9-secret%');
    assert.equal(percent('?k=Zk9-secret%25&x'), '?k=[redacted]&x');
    assert.equal(percent('k=Zk9-SECRET% and k=zk9-secret%25'), 'k=[redacted] and k=[redacted]');
  });

  it('copies an error with the key as an error of its class, its message, stack and cause redacted, and changeable', () => {
    class PlatformFault extends Error {
      override name = 'PlatformFault';
    }
    const error = new PlatformFault(`refused ${KEY}`, { cause: new Error(`echo ${KEY}`) });
    const copy = redact(error);
    assert.notEqual(copy, error);
    assert.ok(copy instanceof PlatformFault);
    assert.equal(copy.name, 'PlatformFault');
    assert.equal(copy.message, 'refused [redacted]');
    assert.ok(!copy.stack!.includes(KEY));
    assert.equal((copy.cause as Error).message, 'echo [redacted]');
    assert.ok(copy.cause instanceof Error);
    // A logger may add to what it is handed.
    copy.message = 'changed';
    delete (copy as { message?: string }).message;
    assert.equal(copy.message, '', "Error.prototype's message once its own is deleted");
    assert.equal(error.message, `refused ${KEY}`, 'the original is untouched');
  });

  it('keeps a cycle a cycle, and the copy of a shared object shared', () => {
    const shared = { key: KEY };
    const looped: Record<string, unknown> = { shared, again: shared };
    looped.self = looped;
    const copy = redact(looped) as Record<string, Record<string, unknown>>;
    assert.equal(copy.self, copy);
    assert.equal(copy.shared, copy.again);
    assert.equal(copy.shared.key, '[redacted]');
    const list: unknown[] = [KEY];
    list.push(list);
    const copied = redact(list);
    assert.equal(copied[1], copied);
    // Without the key, a cycle or a shared object is no reason to copy.
    const keyless: Record<string, unknown> = { shared: { a: 1 } };
    keyless.again = keyless.shared;
    keyless.self = keyless;
    assert.equal(redact(keyless), keyless);
  });

  it('drops what lies deeper than 8 levels, and copies a value whose key may lie there', () => {
    const nest = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { a: nest(depth - 1, leaf) });
    const deep = nest(10, KEY);
    const copy = redact(deep);
    assert.notEqual(copy, deep);
    assert.ok(!holds(copy));
    // Eight levels are read and kept; the ninth is not.
    let level: unknown = copy;
    for (let i = 0; i < 8; i++) level = (level as { a: unknown }).a;
    assert.deepEqual(level, { a: undefined });
    // Even without the key, a value deeper than the redactor reads is not trusted.
    const keyless = nest(10, 'fine');
    assert.notEqual(redact(keyless), keyless);
    // Nine levels of objects (the string under the ninth) are all read: handed on as they are.
    const shallow = nest(9, 'fine');
    assert.equal(redact(shallow), shallow);
    // Arrays count as levels too.
    const nestList = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : [nestList(depth - 1, leaf)]);
    let item: unknown = redact(nestList(10, KEY));
    for (let i = 0; i < 8; i++) item = (item as unknown[])[0];
    assert.deepEqual(item, [undefined]);
  });

  it('copies what it cannot look into: getters, symbol keys, functions and instances of other classes', () => {
    const getter = {
      get secret() {
        return KEY;
      },
    };
    const symbol = { [Symbol('k')]: KEY, plain: 'x' };
    const withFunction = { call: () => KEY, plain: 'x' };
    const instance = new Map([['k', KEY]]);
    class Holder {
      key = 'fine';
    }
    const held = new Holder();
    for (const value of [getter, symbol, withFunction, instance, held]) {
      const copy = redact(value as object);
      assert.notEqual(copy, value, String(value));
      assert.equal(Object.getPrototypeOf(copy), Object.prototype, 'a plain object');
    }
    assert.ok(!('secret' in redact(getter)));
    assert.deepEqual(redact(symbol), { plain: 'x' });
    assert.deepEqual(redact(withFunction), { call: undefined, plain: 'x' });
    assert.deepEqual(redact(held), { key: 'fine' });
    // A null-prototype object is looked into like a plain one.
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 'fine' });
    assert.equal(redact(bare), bare);
  });
});
