// The Node the repository's own tooling names (.nvmrc, and the range in
// package.json's devEngines) is one every locked tool accepts, so `npm ci`
// prints no EBADENGINE warning with it; `engines` stays what the published
// package needs. npm skips an optional package whose engines do not match
// without a warning, so those are left out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// semver ships no types; these two functions are all this test uses.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  devEngines: { runtime: { name: string; version: string } };
};
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};
const nvmrc = read('.nvmrc').trim();

/** The locked packages npm warns about under `version`: each as "name (its engines.node)". */
function refusing(version: string): string[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.optional)
    .flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return range && !semver.satisfies(version, range) ? [`${path.replace(/^.*node_modules\//, '')} (${range})`] : [];
    });
}

describe("the repository's Node", () => {
  it('names in .nvmrc a Node inside devEngines and engines', () => {
    assert.equal(pkg.devEngines.runtime.name, 'node');
    assert.ok(semver.satisfies(nvmrc, pkg.devEngines.runtime.version), `${nvmrc} in ${pkg.devEngines.runtime.version}`);
    assert.ok(semver.satisfies(nvmrc, pkg.engines.node), `${nvmrc} in ${pkg.engines.node}`);
  });

  it('is accepted by every locked package, at .nvmrc and at the lowest Node of each devEngines range', () => {
    const lowest = pkg.devEngines.runtime.version.split('||').map((range) => semver.minVersion(range)!.version);
    for (const version of [nvmrc, ...lowest]) assert.deepEqual(refusing(version), [], `Node ${version}`);
  });
});
