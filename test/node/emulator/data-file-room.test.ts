// Room in the data file (src/emulator/durable.ts, reserve): a change takes room for what it may add before it is
// made; the rooms taken add up until the next write measures the file, and a change that might take the file past
// LIMITS.dataFileBytes gets none; a request that changed nothing gives its room back, once, unless a write has
// measured the file since; without a data file there is no limit. Broken on purpose once each: the bound made
// strict (>=), the rooms taken subtracted or not added, a release given back twice or after a write, no room
// without a data file.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDurableState, type DurableState } from '../../../src/emulator/durable.js';
import { LIMITS } from '../../../src/emulator/limits.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-room-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** A durable state on a data file of its own, closed after `body`. */
async function withDurable(body: (durable: DurableState, free: number) => Promise<void> | void): Promise<void> {
  const durable = openDurableState(join(dir, `room-${++files}.json`));
  try {
    assert.ok(durable.size > 0, 'the seeded file is measured at the start');
    await body(durable, LIMITS.dataFileBytes - durable.size);
  } finally {
    await durable.close();
  }
}

describe('room in the data file', () => {
  it('takes a change that fills the file exactly to its most, and refuses one byte more', async () => {
    await withDurable((durable, free) => {
      assert.equal(durable.reserve(free + 1), undefined);
      assert.ok(durable.reserve(free));
    });
  });

  it('adds up the rooms taken until a write measures the file', async () => {
    await withDurable((durable, free) => {
      assert.ok(durable.reserve(Math.floor(free / 2)));
      assert.ok(durable.reserve(Math.floor(free / 2)));
      assert.equal(durable.reserve(free - 2 * Math.floor(free / 2) + 1), undefined, 'the two rooms are counted');
    });
  });

  it('gives a room back once when its change was not made', async () => {
    await withDurable((durable, free) => {
      const first = durable.reserve(free)!;
      assert.equal(durable.reserve(1), undefined, 'full');
      first.release();
      first.release();
      const second = durable.reserve(free);
      assert.ok(second, 'room again after the release');
      assert.equal(durable.reserve(1), undefined, 'a second release gave nothing more back');
    });
  });

  it('gives nothing back after a write has measured the file with the change or without it', async () => {
    await withDurable(async (durable) => {
      const taken = durable.reserve(1024 * 1024)!;
      durable.state.projects[0].appName = 'measured again';
      await durable.save();
      const free = LIMITS.dataFileBytes - durable.size;
      taken.release();
      assert.equal(durable.reserve(free + 1), undefined, 'the release after the write freed nothing');
      assert.ok(durable.reserve(free));
    });
  });

  it('has no limit without a data file', async () => {
    const durable = openDurableState(undefined);
    try {
      assert.equal(durable.size, 0);
      assert.ok(durable.reserve(LIMITS.dataFileBytes + 1));
    } finally {
      await durable.close();
    }
  });
});
