// docs/architecture.md's list of which folder of src imports which is the code's: every import across folders is
// on the list, and every arrow of the list is used. (ESLint's no-restricted-imports refuses a new one.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);

/** `folder -> folders` as docs/architecture.md lists them ("- `server` imports `api`, `http`, `shared`"). */
function documented(): Map<string, Set<string>> {
  const text = readFileSync(new URL('docs/architecture.md', root), 'utf8');
  const arrows = new Map<string, Set<string>>();
  for (const [, from, to] of text.matchAll(/^- `(\w+)` imports (.+)$/gm)) {
    arrows.set(from!, new Set([...to!.matchAll(/`(\w+)`/g)].map((match) => match[1]!)));
  }
  return arrows;
}

/** `folder -> folders` as the files of src import them (relative imports that leave the folder). */
function actual(): Map<string, Set<string>> {
  const arrows = new Map<string, Set<string>>();
  const src = fileURLToPath(new URL('src/', root));
  const folderOf = (path: string) => relative(src, path).split(sep)[0]!;
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    if (entry.parentPath === src || `${entry.parentPath}${sep}` === src) continue; // src/index.ts, the package's entry
    const from = folderOf(path);
    const targets = arrows.get(from) ?? new Set<string>();
    arrows.set(from, targets);
    for (const [, spec] of readFileSync(path, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const to = folderOf(join(entry.parentPath, spec!));
      if (to !== from) targets.add(to);
    }
  }
  return arrows;
}

describe('the layout of src', () => {
  it('imports across folders exactly as docs/architecture.md lists', () => {
    const listed = documented();
    const found = actual();
    assert.deepEqual([...listed.keys()].sort(), [...found.keys()].sort(), 'the page lists every folder of src');
    for (const [folder, targets] of found) {
      const allowed = [...listed.get(folder)!].filter((target) => target !== 'nothing');
      assert.deepEqual([...targets].sort(), allowed.sort(), `src/${folder}'s imports`);
    }
  });
});
