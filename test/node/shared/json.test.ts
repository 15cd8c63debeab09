// Bounds of a parsed JSON value (src/shared/json.ts): depth counts arrays and objects only (a scalar has none), and
// entries count an object's own keys and an array's items, in all.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isRecord, jsonBeyond } from '../../../src/shared/json.js';

const nest = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nest(depth - 1) });

describe('jsonBeyond', () => {
  it('gives a scalar no depth and no entries', () => {
    for (const value of ['x', 5, true, null, undefined]) {
      assert.equal(jsonBeyond(value, { depth: 0, entries: 0 }), null, String(value));
    }
  });

  it('counts the levels of arrays and objects, not the scalars or nulls in them', () => {
    assert.equal(jsonBeyond(nest(3), { depth: 3 }), null);
    assert.equal(jsonBeyond(nest(4), { depth: 3 }), 'depth');
    assert.equal(jsonBeyond([1, 'x', null, true], { depth: 1 }), null);
    assert.equal(jsonBeyond({ a: 1, b: 'x', c: null }, { depth: 1 }), null);
    assert.equal(jsonBeyond([[[]]], { depth: 2 }), 'depth');
    assert.equal(jsonBeyond({ a: [{}] }, { depth: 3 }), null);
  });

  it("counts an object's own keys and an array's items, in all", () => {
    assert.equal(jsonBeyond({ a: 1, b: [1, 2] }, { depth: 9, entries: 4 }), null);
    assert.equal(jsonBeyond({ a: 1, b: [1, 2, 3] }, { depth: 9, entries: 4 }), 'entries');
    const inherits = Object.assign(Object.create({ inherited: 1, also: 2 }) as object, { own: 1 });
    assert.equal(jsonBeyond(inherits, { depth: 9, entries: 1 }), null);
    assert.equal(jsonBeyond(new Array(1000).fill(0), { depth: 1, entries: 999 }), 'entries');
  });

  it('walks a million levels without overflowing the stack', () => {
    let deep: unknown = [];
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    assert.equal(jsonBeyond(deep, { depth: 64 }), 'depth');
  });
});

describe('isRecord', () => {
  it('is a JSON object: not null, not an array, not a scalar', () => {
    assert.equal(isRecord({}), true);
    for (const value of [null, [], 'x', 1, undefined]) assert.equal(isRecord(value), false, String(value));
  });
});
