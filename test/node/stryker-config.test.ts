// The parts of a mutation-testing area (stryker.config.mjs) must add up to the area: a file left out of every
// part would never be mutated, and a file in two parts would be counted twice in the area's score. An area's score
// (npm run mutate) counts only the files it mutates now, though its report keeps those it no longer has.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { AREAS, mutatedBy, testsOf } from '../../stryker.config.mjs';

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

  it("runs a part's tests without the ones it leaves out, each of which is one of its area's", () => {
    for (const [area, { tests, parts, testsLeftOut }] of Object.entries(AREAS)) {
      for (const [part, leftOut] of Object.entries(testsLeftOut ?? {})) {
        assert.ok(parts && Object.hasOwn(parts, part), `${area} has no part ${part}`);
        for (const file of leftOut) assert.ok(tests.includes(file), `${file} is no test of ${area}`);
        assert.deepEqual(
          testsOf(area, part),
          tests.filter((file) => !leftOut.includes(file)),
        );
      }
    }
    assert.ok(!testsOf('emulator', 'content').includes('test/node/emulator/data-file-size-limit.test.ts'));
    assert.ok(testsOf('emulator', 'server').includes('test/node/emulator/data-file-size-limit.test.ts'));
    assert.deepEqual(testsOf('emulator', undefined), AREAS.emulator.tests);
  });

  it('scores an area over the files it mutates now, not those its report kept from before', () => {
    assert.ok(mutatedBy('api', undefined, 'src/api/client.ts'));
    assert.ok(mutatedBy('api', undefined, 'src/shared/retry.ts'));
    // Mutated with the server since issue #21: an api report from before still holds them.
    assert.ok(!mutatedBy('api', undefined, 'src/shared/url.ts'));
    assert.ok(mutatedBy('server', undefined, 'src/shared/url.ts'));
    assert.ok(!mutatedBy('api', undefined, 'src/shared/schema.ts'));
    assert.ok(!mutatedBy('api', undefined, 'src/apix/client.ts'));
    assert.ok(mutatedBy('emulator', 'access', 'src/emulator/jwt.ts'));
    assert.ok(!mutatedBy('emulator', 'access', 'src/emulator/state-file.ts'));
  });
});
