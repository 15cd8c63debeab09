// The lock of a data file (src/emulator/data-file-lock.ts) has no side effect when imported: its exit hook, which
// removes the locks still held when the process ends, is there only while this process holds a lock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('the exit hook of the data-file lock', () => {
  it('is added with the first lock held and removed with the last one released', async () => {
    const before = process.listenerCount('exit');
    const { lockDataFile, lockPathOf } = await import('../../../src/emulator/data-file-lock.js');
    assert.equal(process.listenerCount('exit'), before, 'importing the module adds no exit hook');
    const dir = mkdtempSync(join(tmpdir(), 'emulator-lock-'));
    try {
      const releaseA = lockDataFile(join(dir, 'a.json'));
      const releaseB = lockDataFile(join(dir, 'b.json'));
      assert.equal(process.listenerCount('exit'), before + 1, 'one hook for every lock');
      releaseA();
      assert.equal(process.listenerCount('exit'), before + 1, 'b is still held');
      releaseB();
      releaseB();
      assert.equal(process.listenerCount('exit'), before);
      assert.equal(existsSync(lockPathOf(join(dir, 'a.json'))), false);
      assert.equal(existsSync(lockPathOf(join(dir, 'b.json'))), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
