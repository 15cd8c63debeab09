// The issues the emulator makes of ajv's errors (toIssues in src/emulator/openapi.ts): each names the offending
// member as the client wrote it, even a key that holds / or ~ (which ajv's JSON pointers escape as ~1 and ~0), and
// echoes the value found there. The document's request schemas have no such keys yet: any schema may.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { toIssues } from '../../../src/emulator/openapi.js';

describe('toIssues', () => {
  it('names a member whose key holds / or ~ as it was sent, and finds its value', () => {
    const validate = new Ajv2020({ allErrors: true }).compile({
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['n'],
        additionalProperties: false,
        properties: { n: { type: 'integer' } },
      },
    });
    // 'e~1f' is escaped as e~01f: unescaping ~1 before ~0 gives it back, not e/f.
    const body = { 'a/b': { n: 'one' }, 'c~d': {}, 'e~1f': { n: 1, 'x/y': 2 } };
    assert.equal(validate(body), false);
    assert.deepEqual(toIssues(validate.errors, 'body', body), [
      { type: 'about:blank', detail: 'a/b.n must be integer', in: 'body', name: 'a/b.n', value: 'one' },
      { type: 'about:blank', detail: 'c~d.n is required', in: 'body', name: 'c~d.n' },
      { type: 'about:blank', detail: 'e~1f.x/y is not a known property', in: 'body', name: 'e~1f.x/y', value: 2 },
    ]);
  });
});
