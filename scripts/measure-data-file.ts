// node --import tsx scripts/measure-data-file.ts: the emulator's data file at its worst. Fills a --data file to
// every limit with the costliest characters (control characters, six bytes each in the file; metadata of many short
// keys): PayPal connections at every character limit until a 429, then consent links, then projects, each until a
// 429; and reports the file's size, the time a restart takes on it, the longest write (a change's answer waits for
// it) and the longest a read waited meanwhile.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator } from '../src/emulator/index.js';
import { LIMITS } from '../src/emulator/limits.js';
import { costly, costlyConnection, costlyConsent } from '../test/node/helpers/costly.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-measure-'));
const file = join(dir, 'state.json');
const KEY = { 'x-api-key': 'dev-api-key', 'content-type': 'application/json' };

function call(emulator: Emulator, method: string, path: string, body?: unknown): Promise<Response> {
  return emulator.handle(
    new Request(`http://127.0.0.1${path}`, {
      method,
      headers: KEY,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

/** Makes things with `make(i)` until a 429; how many it made. */
async function fill(make: (i: number) => Promise<Response>): Promise<number> {
  for (let i = 0; ; i++) {
    const response = await make(i);
    if (response.status === 429) return i;
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`${response.status} ${await response.text()}`);
  }
}

try {
  let emulator = createEmulator({ dataFile: file, verifyDelay: 0 });
  const filling = performance.now();
  const connections = await fill((i) =>
    call(emulator, 'POST', '/v1/projects/demo/connections:generate', costlyConnection(i)),
  );
  const consents = await fill((i) => call(emulator, 'POST', '/v1/oauth-connect', costlyConsent(i)));
  const projects = await fill((i) =>
    call(emulator, 'POST', '/v1/projects', {
      name: `p${i}-${'x'.repeat(100)}`,
      appName: costly(128),
      orgId: 'org_demo',
    }),
  );
  await emulator.close();
  const size = statSync(file).size;
  console.log(
    `filled in ${((performance.now() - filling) / 1000).toFixed(1)} s: ${connections} connections, ${consents} consent links, ${projects} projects; the file: ${size} bytes (${(size / 1e6).toFixed(2)} MB; the limit ${LIMITS.dataFileBytes})`,
  );

  const starting = performance.now();
  emulator = createEmulator({ dataFile: file, verifyDelay: 0 });
  const startMs = performance.now() - starting;
  console.log(`start on it: ${startMs.toFixed(0)} ms`);

  // Writes of the full file: each delete is a change, answered once the whole file is written; reads meanwhile.
  const { baseUrl } = await emulator.listen();
  const ids = emulator.state.connections.map((c) => c.id).filter((id) => id !== 'conn_demo');
  let reading = true;
  let longestRead = 0;
  let reads = 0;
  const reader = (async () => {
    while (reading) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/projects/demo/connections/conn_demo`, { headers: KEY });
      await response.arrayBuffer();
      longestRead = Math.max(longestRead, performance.now() - started);
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  let longestWrite = 0;
  const writes = 10;
  for (const id of ids.slice(0, writes)) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/projects/demo/connections/${id}`, { method: 'DELETE', headers: KEY });
    if (response.status !== 204) throw new Error(`delete: ${response.status}`);
    longestWrite = Math.max(longestWrite, performance.now() - started);
  }
  reading = false;
  await reader;
  await emulator.close();
  console.log(
    `longest of ${writes} writes of the full file (a change's answer): ${longestWrite.toFixed(0)} ms; longest of ${reads} reads meanwhile: ${longestRead.toFixed(0)} ms`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
