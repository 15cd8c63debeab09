// The emulator stands alone: it never imports the host-backend handler (src/server).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

describe('emulator structure', () => {
  it('never imports from src/server, directly or through another module', () => {
    const root = new URL('../../../src/', import.meta.url);
    const seen = new Set<string>();
    const queue = ['emulator/index.ts', 'emulator/cli.ts'];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      assert.ok(!file.startsWith('server/'), `the emulator reaches src/${file}`);
      const text = readFileSync(new URL(file, root), 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const resolved = new URL(spec.replace(/\.js$/, '.ts'), new URL(file, root)).pathname.slice(
          root.pathname.length,
        );
        queue.push(resolved);
      }
    }
    assert.ok(seen.has('http/problem.ts') && seen.has('emulator/operations.ts'), 'the walk follows imports');
  });
});
