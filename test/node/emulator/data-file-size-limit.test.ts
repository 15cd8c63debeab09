// The data file's limit is counted in the bytes it stores (JSON as the file indents it, UTF-8, escapes included):
// connections made of the costliest characters (control characters, six bytes each in the file) at every
// character limit are refused with a 429 before the file could grow past LIMITS.dataFileBytes; deleting some makes
// room again; and a request refused for another reason takes no room.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator } from '../../../src/emulator/index.js';
import { LIMITS } from '../../../src/emulator/limits.js';
import { costlyConnection } from '../helpers/costly.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-data-bytes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the data file never grows past LIMITS.dataFileBytes, counted in the bytes it stores', () => {
  it('refuses with 429 a connection that might take the file past its most, whatever its characters; a delete makes room', async (t) => {
    const file = join(dir, 'full.json');
    const emulator = createEmulator({ dataFile: file, verifyDelay: 0 });
    const generate = (project: string, i: number) =>
      emulator.handle(
        new Request(`http://127.0.0.1/v1/projects/${project}/connections:generate`, {
          method: 'POST',
          headers: { 'x-api-key': 'dev-api-key', 'content-type': 'application/json' },
          body: JSON.stringify(costlyConnection(i)),
        }),
      );
    try {
      const made: string[] = [];
      let refused: { status: number; detail: string } | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const response = await generate('demo', i);
        assert.ok(statSync(file).size <= LIMITS.dataFileBytes, `${statSync(file).size} bytes after ${i + 1}`);
        if (response.status === 429) refused = await response.json();
        else {
          assert.equal(response.status, 201, await response.clone().text());
          made.push(((await response.json()) as { id: string }).id);
        }
      }
      assert.ok(refused, 'refused before 200 connections of 180 KB each');
      t.diagnostic(`${made.length} connections, ${statSync(file).size} bytes, then a 429`);
      assert.match(
        refused.detail,
        /^the data file holds \d+ bytes, and this change might take it past its most \(8388608 bytes\); delete some connections first$/,
      );
      // Each costly connection is over 150 KB in the file: at most ~55 fit in 8 MiB, and far more than a few.
      assert.ok(made.length >= 20 && made.length <= 60, `${made.length} connections`);

      for (const id of made.slice(0, 4)) {
        const deleted = await emulator.handle(
          new Request(`http://127.0.0.1/v1/projects/demo/connections/${id}`, {
            method: 'DELETE',
            headers: { 'x-api-key': 'dev-api-key' },
          }),
        );
        assert.equal(deleted.status, 204);
      }
      // Refused for another reason (no such project), a request takes no room: never a 429 however many.
      for (let i = 0; i < 30; i++) assert.equal((await generate('no-such-project', 1000 + i)).status, 404);
      assert.equal((await generate('demo', 2000)).status, 201, 'room again after the deletes');
      assert.ok(statSync(file).size <= LIMITS.dataFileBytes);
    } finally {
      await emulator.close();
    }
  });
});
