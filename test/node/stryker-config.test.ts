// The parts of a mutation-testing area (stryker.config.mjs) must add up to the area: a file left out of every
// part would never be mutated, and a file in two parts would be counted twice in the area's score.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { AREAS } from '../../stryker.config.mjs';

/** The files an area's mutate patterns select (plain `dir/**\/*.ts` patterns and `!file` exclusions). */
function filesOf(patterns: string[]): string[] {
  const files = new Set<string>();
  for (const pattern of patterns.filter((p) => !p.startsWith('!'))) {
    const dir = pattern.replace(/\/\*\*\/\*\.ts$/, '');
    assert.notEqual(dir, pattern, `unexpected pattern ${pattern}`);
    for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (entry.endsWith('.ts')) files.add(`${dir}/${entry}`);
    }
  }
  for (const pattern of patterns.filter((p) => p.startsWith('!'))) files.delete(pattern.slice(1));
  return [...files].sort();
}

describe('stryker.config.mjs', () => {
  for (const [area, { mutate, parts }] of Object.entries(AREAS)) {
    if (!parts) continue;
    it(`splits ${area} into parts that hold each of its files once`, () => {
      const inParts = Object.values(parts).flat();
      assert.deepEqual([...inParts].sort(), filesOf(mutate));
      assert.equal(new Set(inParts).size, inParts.length, 'a file in two parts');
    });
  }
});
