// Answered means on disk: the emulator saves a change before it answers it (a 503 to retry when it cannot), flush()
// waits for a change still being written, and one data file serves one emulator: a lock naming a live other process
// refuses, one naming a gone process is taken over, one naming no process is another emulator starting while it is
// younger than 10 s, a lock that keeps changing hands is given up after three tries, and the lock goes on close.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs, {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmulator, EmulatorDataError } from '../../../src/emulator/index.js';
import { seedState } from '../../../src/emulator/seed.js';
import { lockPathOf } from '../../../src/emulator/data-file-lock.js';
import { createStateWriter } from '../../../src/emulator/state-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-durability-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const KEY = { 'x-api-key': 'dev-api-key' };

const projectRequest = (name: string) =>
  new Request('http://emulator.localhost/v1/projects', {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ name, appName: name, orgId: 'org_demo' }),
  });

/** Runs `body` with one function of node:fs replaced (as the emulator imports it too), then puts it back. */
function withFs<K extends 'rmSync' | 'statSync' | 'linkSync' | 'openSync'>(
  name: K,
  replacement: (typeof fs)[K],
  body: () => void,
): void {
  const original = fs[name];
  fs[name] = replacement;
  syncBuiltinESMExports();
  try {
    body();
  } finally {
    fs[name] = original;
    syncBuiltinESMExports();
  }
}

/** The pid of a process that has exited. */
const gonePid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

/** Writes a lock file for `file`, `ageMs` old. */
function writeLock(file: string, content: string, ageMs = 0): void {
  const lock = lockPathOf(file);
  writeFileSync(lock, content);
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(lock, at, at);
}

/** An error as node:fs throws it: its message starts with its code. */
const systemError = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

/** A linkSync that fails with `code`, as on a file system without hard links (or a failing one). */
const linkFailing = (code: string, message = 'operation not permitted, link') =>
  (() => {
    throw systemError(code, message);
  }) as typeof fs.linkSync;

/** Closes `closed` while `holder` holds the lock of `file`: a third emulator is still refused; then closes `holder`. */
async function assertCloseLeavesHold(
  closed: ReturnType<typeof createEmulator>,
  holder: ReturnType<typeof createEmulator>,
  file: string,
): Promise<void> {
  try {
    await closed.close();
    assert.throws(() => createEmulator({ dataFile: file }), EmulatorDataError, 'still held by the other');
  } finally {
    await holder.close();
  }
}

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
    const writer = createStateWriter(
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

  it('refuses a lock naming another live process, naming it, and takes the lock over once that process is gone', async () => {
    const file = join(dir, 'live.json');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeLock(file, JSON.stringify({ pid: other.pid, file }));
      assert.throws(
        () => createEmulator({ dataFile: file }),
        (error: unknown) =>
          error instanceof EmulatorDataError &&
          error.message.includes(`another emulator (process ${other.pid}) is using the data file ${file}`),
      );
    } finally {
      const exited = new Promise((resolve) => other.once('exit', resolve));
      other.kill('SIGKILL');
      await exited;
    }
    const emulator = createEmulator({ dataFile: file });
    await emulator.close();
  });

  it('takes over a lock naming this very process that it does not hold (a pid used again)', async () => {
    const file = join(dir, 'reused-pid.json');
    writeLock(file, JSON.stringify({ pid: process.pid, file }), 60_000);
    const emulator = createEmulator({ dataFile: file });
    try {
      assert.throws(() => createEmulator({ dataFile: file }), EmulatorDataError, 'now held');
    } finally {
      await emulator.close();
    }
  });

  const unnamed: Array<[string, string]> = [
    ['no pid', JSON.stringify({})],
    ['pid 0', JSON.stringify({ pid: 0 })],
    ['pid -1', JSON.stringify({ pid: -1 })],
    ['pid 1.5', JSON.stringify({ pid: 1.5 })],
    ['pid "1"', JSON.stringify({ pid: '1' })],
    ['no JSON', ''],
  ];
  for (const [what, content] of unnamed) {
    it(`takes a lock of ${what} younger than 10 s as another emulator starting, and takes it over once older`, async () => {
      const file = join(dir, `unnamed-${what.replace(/\W/g, '')}.json`);
      writeLock(file, content, 1000);
      assert.throws(
        () => createEmulator({ dataFile: file }),
        (error: unknown) =>
          error instanceof EmulatorDataError &&
          error.message === `another emulator is starting on the data file ${file} (its lock: ${lockPathOf(file)})`,
      );
      writeLock(file, content, 11_000);
      const emulator = createEmulator({ dataFile: file });
      assert.ok(JSON.parse(readFileSync(lockPathOf(file), 'utf8')).pid === process.pid, 'the lock names it now');
      await emulator.close();
    });
  }

  it('takes the lock when the lock it found is removed while it looks at it', async () => {
    const file = join(dir, 'vanishing.json');
    const lock = lockPathOf(file);
    writeLock(file, '');
    const statSync = fs.statSync;
    let emulator: ReturnType<typeof createEmulator> | undefined;
    withFs(
      'statSync',
      ((path: string, ...rest: []) => {
        if (path === lock) rmSync(lock);
        return statSync(path, ...rest);
      }) as typeof fs.statSync,
      () => (emulator = createEmulator({ dataFile: file })),
    );
    assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, process.pid);
    await emulator?.close();
  });

  it('gives up after three tries on a lock that keeps changing hands', () => {
    const file = join(dir, 'contended.json');
    const lock = lockPathOf(file);
    writeLock(file, JSON.stringify({ pid: gonePid(), file }));
    const rm = fs.rmSync;
    let taken = 0;
    withFs(
      'rmSync',
      ((path: string, options?: object) => {
        rm(path, options);
        // Another emulator takes the lock at once, and is gone too when looked at: three times.
        if (path === lock && taken++ < 3) writeFileSync(lock, JSON.stringify({ pid: gonePid(), file }));
      }) as typeof fs.rmSync,
      () =>
        assert.throws(
          () => createEmulator({ dataFile: file }),
          (error: unknown) =>
            error instanceof EmulatorDataError &&
            error.message === `the lock of the data file ${file} keeps changing hands (its lock: ${lock})`,
        ),
    );
    rmSync(lock);
    assert.ok(!existsSync(file), 'the data file untouched');
  });

  it('refuses with EmulatorDataError quoting the system when the lock cannot be created', () => {
    const file = join(dir, 'no-temp.json');
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = join(dir, 'no-such-folder');
    try {
      assert.throws(
        () => createEmulator({ dataFile: file }),
        (error: unknown) =>
          error instanceof EmulatorDataError &&
          error.message.startsWith(
            `the lock file ${lockPathOf(file)} of the data file ${file} could not be created (`,
          ) &&
          /ENOENT/.test(error.message) &&
          (error.cause as NodeJS.ErrnoException).code === 'ENOENT',
      );
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
  });

  it('shares one lock between two spellings of a file through a symbolic link to its folder', async () => {
    const real = join(dir, 'real');
    mkdirSync(real);
    symlinkSync(real, join(dir, 'linked'));
    const emulator = createEmulator({ dataFile: join(real, 'state.json') });
    try {
      assert.throws(() => createEmulator({ dataFile: join(dir, 'linked', 'state.json') }), EmulatorDataError);
    } finally {
      await emulator.close();
    }
  });

  it('takes its lock where the file system has no hard links, still one emulator at a time', async () => {
    for (const code of ['EPERM', 'ENOTSUP', 'ENOSYS', 'EXDEV']) {
      const file = join(dir, `no-links-${code}.json`);
      let emulator: ReturnType<typeof createEmulator> | undefined;
      withFs('linkSync', linkFailing(code), () => {
        emulator = createEmulator({ dataFile: file });
        assert.throws(
          () => createEmulator({ dataFile: file }),
          (error: unknown) =>
            error instanceof EmulatorDataError && error.message.startsWith(`another emulator (process ${process.pid})`),
          code,
        );
      });
      assert.equal(JSON.parse(readFileSync(lockPathOf(file), 'utf8')).pid, process.pid, code);
      await emulator?.close();
      assert.ok(!existsSync(lockPathOf(file)), `${code}: released`);
    }
    const denied = join(dir, 'no-links-denied.json');
    const openSync = fs.openSync;
    withFs('linkSync', linkFailing('EPERM'), () =>
      withFs(
        'openSync',
        ((path: string, flags: fs.OpenMode, mode?: fs.Mode) => {
          if (path === lockPathOf(denied)) throw systemError('EACCES', 'permission denied, open');
          return openSync(path, flags, mode);
        }) as typeof fs.openSync,
        () =>
          assert.throws(
            () => createEmulator({ dataFile: denied }),
            (error: unknown) =>
              error instanceof EmulatorDataError &&
              error.message.endsWith('could not be created (EACCES: permission denied, open)'),
          ),
      ),
    );
    const file = join(dir, 'link-failed.json');
    withFs('linkSync', linkFailing('EIO', 'i/o error, link'), () =>
      assert.throws(
        () => createEmulator({ dataFile: file }),
        (error: unknown) =>
          error instanceof EmulatorDataError &&
          error.message ===
            `the lock file ${lockPathOf(file)} of the data file ${file} could not be created (EIO: i/o error, link)`,
      ),
    );
  });

  it('keeps its lock file readable and writable by its own user only', async () => {
    const file = join(dir, 'private.json');
    const emulator = createEmulator({ dataFile: file });
    try {
      assert.equal(fs.statSync(lockPathOf(file)).mode & 0o777, 0o600);
    } finally {
      await emulator.close();
    }
  });

  it('leaves be, when closed, the lock another emulator took after its own was removed', async () => {
    const file = join(dir, 'taken-after-removal.json');
    const first = createEmulator({ dataFile: file });
    rmSync(lockPathOf(file));
    await assertCloseLeavesHold(first, createEmulator({ dataFile: file }), file);
  });

  it('closes without error when its lock was removed meanwhile', async () => {
    const file = join(dir, 'removed.json');
    const emulator = createEmulator({ dataFile: file });
    rmSync(lockPathOf(file));
    await emulator.close();
  });

  it('leaves the lock of another process be when closed a second time', async () => {
    const file = join(dir, 'released.json');
    const emulator = createEmulator({ dataFile: file });
    await emulator.close();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeLock(file, JSON.stringify({ pid: other.pid, file }));
      await emulator.close();
      assert.throws(() => createEmulator({ dataFile: file }), EmulatorDataError, 'still held by the other');
    } finally {
      const exited = new Promise((resolve) => other.once('exit', resolve));
      other.kill('SIGKILL');
      await exited;
    }
    rmSync(lockPathOf(file));
  });

  it('leaves the lock of another emulator of this process be when closed a second time', async () => {
    const file = join(dir, 'released-here.json');
    const first = createEmulator({ dataFile: file });
    await first.close();
    await assertCloseLeavesHold(first, createEmulator({ dataFile: file }), file);
  });

  const exitWithoutClose = (file: string, then: string) => {
    const index = new URL('../../../src/emulator/index.ts', import.meta.url).href;
    return spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { createEmulator } = await import(${JSON.stringify(index)}); createEmulator({ dataFile: ${JSON.stringify(file)} }); ${then} process.stdout.write('started');`,
      ],
      { encoding: 'utf8', timeout: 15000 },
    );
  };

  it('exits without error when the lock it holds was removed meanwhile', () => {
    const file = join(dir, 'exited-removed.json');
    const lock = JSON.stringify(lockPathOf(file));
    const child = exitWithoutClose(file, `(await import('node:fs')).rmSync(${lock});`);
    assert.equal(child.stdout, 'started', child.stderr);
    assert.equal(child.status, 0, child.stderr);
  });

  it('removes its lock when the process exits without closing', () => {
    const file = join(dir, 'exited.json');
    const child = exitWithoutClose(file, '');
    assert.equal(child.stdout, 'started', child.stderr);
    assert.equal(child.status, 0);
    assert.ok(!existsSync(lockPathOf(file)));
  });
});
