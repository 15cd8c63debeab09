// Answered means on disk: the emulator saves a change before it answers it (a 503 to retry when it cannot), flush()
// waits for a change still being written, and one data file serves one emulator.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmulator, EmulatorDataError } from '../../../src/emulator/index.js';
import { seedState } from '../../../src/emulator/seed.js';
import { lockPathOf, stateWriter } from '../../../src/emulator/store.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-durability-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const KEY = { 'x-api-key': 'dev-api-key' };

const projectRequest = (name: string) =>
  new Request('http://emulator.test/v1/projects', {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ name, appName: name, orgId: 'org_demo' }),
  });

const namesOnDisk = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8')).projects.map((p: { name: string }) => p.name) as string[];

describe('emulator durability: answered means on disk', () => {
  it('has a change on disk when its answer arrives', async () => {
    const file = join(dir, 'answered.json');
    const emulator = createEmulator({ dataFile: file });
    try {
      const response = await emulator.handle(projectRequest('durable'));
      assert.equal(response.status, 201);
      // Read at once, before anything else runs: the answer came after the write.
      assert.ok(namesOnDisk(file).includes('durable'));
    } finally {
      await emulator.close();
    }
  });

  it('has every one of concurrent changes on disk when its own answer arrives', async () => {
    const file = join(dir, 'concurrent.json');
    const emulator = createEmulator({ dataFile: file });
    try {
      const answers = Array.from({ length: 20 }, (_, i) =>
        emulator.handle(projectRequest(`many-${i}`)).then((response) => {
          assert.equal(response.status, 201);
          assert.ok(namesOnDisk(file).includes(`many-${i}`), `many-${i} on disk when answered`);
        }),
      );
      await Promise.all(answers);
      assert.deepEqual(
        readdirSync(dir).filter((n) => n.startsWith('concurrent.json.')),
        [],
        'no temp file left',
      );
    } finally {
      await emulator.close();
    }
  });

  it('makes one write (one fsync) of saves asked for together, and one more of those asked for during it', async () => {
    const writes: string[] = [];
    let finish: () => void = () => {};
    const writer = stateWriter(
      join(dir, 'counted.json'),
      () => {},
      async (_file, text) => {
        writes.push(text);
        await new Promise<void>((resolve) => (finish = resolve));
      },
    );
    const state = seedState();
    const first = Array.from({ length: 10 }, () => writer.save(state));
    while (writes.length === 0) await new Promise((r) => setImmediate(r));
    assert.equal(writes.length, 1, 'ten saves of one turn share a write');
    const during = Array.from({ length: 10 }, () => writer.save(state));
    finish();
    await Promise.all(first);
    while (writes.length === 1) await new Promise((r) => setImmediate(r));
    finish();
    await Promise.all(during);
    assert.equal(writes.length, 2, 'ten saves asked for during a write share the next one');
    await writer.flush();
  });

  it('answers 503, retryable after a second, not 201, when the change could not be saved', async () => {
    const sub = mkdtempSync(join(dir, 'unsaved-'));
    const file = join(sub, 'state.json');
    const emulator = createEmulator({ dataFile: file });
    const consoleError = console.error;
    console.error = () => {};
    try {
      rmSync(sub, { recursive: true });
      const response = await emulator.handle(projectRequest('lost'));
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      assert.equal(response.headers.get('retry-after'), '1');
      const problem = await response.json();
      assert.match(problem.detail, /could not be saved/);
      assert.equal(problem.retryable, true);
      assert.equal(problem.stack, undefined);
    } finally {
      console.error = consoleError;
      await emulator.close();
    }
  });

  it('resolves flush() only once a change still being written is in the data file', async () => {
    const file = join(dir, 'flushed.json');
    const emulator = createEmulator({ dataFile: file });
    try {
      const answered = emulator.handle(projectRequest('in-flight'));
      while (!emulator.state.projects.some((p) => p.name === 'in-flight')) await new Promise((r) => setImmediate(r));
      await emulator.flush();
      assert.ok(namesOnDisk(file).includes('in-flight'));
      assert.equal((await answered).status, 201);
    } finally {
      await emulator.close();
    }
  });
});

describe('emulator durability: one emulator per data file', () => {
  it('refuses a second emulator on the same file with a clear message, until the first closes', async () => {
    const file = join(dir, 'locked.json');
    const first = createEmulator({ dataFile: file });
    try {
      assert.throws(
        () => createEmulator({ dataFile: file }),
        (error: unknown) =>
          error instanceof EmulatorDataError &&
          error.message.includes(`another emulator (process ${process.pid}) is using the data file ${file}`),
      );
      assert.throws(() => createEmulator({ dataFile: join(dir, '.', 'locked.json') }), EmulatorDataError, 'same file');
      // The refused one changed nothing: the first still saves.
      assert.equal((await first.handle(projectRequest('still-mine'))).status, 201);
    } finally {
      await first.close();
    }
    const second = createEmulator({ dataFile: file });
    assert.ok(second.state.projects.some((p) => p.name === 'still-mine'));
    await second.close();
  });

  it('takes over a lock left by an emulator that is gone', async () => {
    const file = join(dir, 'stale.json');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(lockPathOf(file), JSON.stringify({ pid: Number(gone.stdout.toString()), file }));
    const emulator = createEmulator({ dataFile: file });
    await emulator.close();
    assert.throws(() => readFileSync(lockPathOf(file)), /ENOENT/, 'released on close');
  });

  it('releases its lock when it fails to start', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{ not json');
    assert.throws(() => createEmulator({ dataFile: file }), /not valid JSON/);
    writeFileSync(file, JSON.stringify({ version: 2 }));
    assert.throws(() => createEmulator({ dataFile: file }), /not an emulator data file/, 'not "another emulator"');
  });

  it('makes a second CLI on the same --data exit 2, naming the file', async () => {
    const cli = fileURLToPath(new URL('../../../src/emulator/cli.ts', import.meta.url));
    const file = join(dir, 'cli.json');
    const first = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--data', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        first.stdout!.on('data', (chunk) => {
          out += chunk;
          if (/^project:/m.test(out)) resolve();
        });
        first.once('exit', () => reject(new Error('the first emulator exited')));
      });
      const second = spawnSync(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--data', file], {
        encoding: 'utf8',
        timeout: 15000,
      });
      assert.equal(second.status, 2);
      assert.match(second.stderr, new RegExp(`another emulator \\(process ${first.pid}\\) is using the data file`));
    } finally {
      const exited = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGTERM');
      await exited;
    }
  });
});
