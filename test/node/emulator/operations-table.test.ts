// src/emulator/operations.ts is where a newcomer reads what the emulator serves: each entry of its table names an
// operation's handler under a note of the method and path that route to it. The table's keys and those notes must
// say what openapi.yaml says. Read from the module itself and from its syntax tree (the TypeScript compiler's), so
// spacing, alignment or line breaks change nothing. Broken on purpose once: a note's path changed, a note dropped
// (both red).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { loadContract } from '../../../src/emulator/openapi.js';
import { handlers } from '../../../src/emulator/operations.js';

const path = new URL('../../../src/emulator/operations.ts', import.meta.url);

/** Each entry of the `handlers` table as written: its key and the comments written above it, one string each. */
function tableEntries(): Array<{ key: string; notes: string[] }> {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path.pathname, text, ts.ScriptTarget.Latest, true);
  const table = file.statements
    .filter(ts.isVariableStatement)
    .flatMap((statement) => [...statement.declarationList.declarations])
    .find((declaration) => ts.isIdentifier(declaration.name) && declaration.name.text === 'handlers');
  assert.ok(table?.initializer && ts.isObjectLiteralExpression(table.initializer), 'operations.ts has its table');
  return table.initializer.properties.map((property) => {
    assert.ok(
      property.name && ts.isIdentifier(property.name),
      `an entry named by an identifier: ${property.getText()}`,
    );
    const notes = (ts.getLeadingCommentRanges(text, property.getFullStart()) ?? []).map((range) =>
      text
        .slice(range.pos, range.end)
        .replace(/^\/\/|^\/\*|\*\/$/g, '')
        .trim(),
    );
    return { key: property.name.text, notes };
  });
}

describe("the emulator's operations table", () => {
  const documented = loadContract().operations.map(
    (op) => `${op.operationId} ${op.method} ${op.server === 'base' ? '/v1' : '/search/v1'}${op.template}`,
  );

  it('holds a handler for every operation of openapi.yaml, and for nothing else', () => {
    assert.deepEqual(Object.keys(handlers).sort(), documented.map((line) => line.split(' ')[0]!).sort());
    for (const [operationId, handler] of Object.entries(handlers))
      assert.equal(typeof handler, 'function', operationId);
  });

  it('notes above each entry the method and path of openapi.yaml', () => {
    const listed = tableEntries().map(({ key, notes }) => {
      assert.equal(notes.length, 1, `${key}: one note, its method and path`);
      const [method, route, ...rest] = notes[0]!.split(/\s+/);
      assert.deepEqual(rest, [], `${key}: its note is its method and path alone`);
      return `${key} ${method} ${route}`;
    });
    assert.deepEqual([...listed].sort(), [...documented].sort());
  });
});
