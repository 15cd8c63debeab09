// src/emulator/operations.ts is where a newcomer reads what the emulator serves: each line of its table names an
// operation's handler with the method and path that route to it. Those notes must say what openapi.yaml says.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadContract } from '../../../src/emulator/openapi.js';

describe("the emulator's operations table", () => {
  it('names every operation of openapi.yaml once, with its method and path', () => {
    const text = readFileSync(new URL('../../../src/emulator/operations.ts', import.meta.url), 'utf8');
    const listed = [...text.matchAll(/^ {2}(\w+), \/\/ +(GET|POST|PATCH|PUT|DELETE) +(\/\S+)$/gm)].map(
      ([, operationId, method, path]) => `${operationId} ${method} ${path}`,
    );
    const documented = loadContract().operations.map(
      (op) => `${op.operationId} ${op.method} ${op.server === 'base' ? '/v1' : '/search/v1'}${op.template}`,
    );
    assert.deepEqual([...listed].sort(), [...documented].sort());
  });
});
