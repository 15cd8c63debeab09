// Rules of the emulator's data file that StrykerJS showed no test held (npm run mutate -- emulator.operations):
// which files it refuses and with what words (the file left as it was), which leftover files it deletes at start,
// that a failed background write leaves no temporary file and says so, and that no write leaks a file descriptor.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, EmulatorDataError } from '../../src/emulator/index.js';
import { seedState } from '../../src/emulator/seed.js';

const KEY = { 'x-api-key': 'dev-api-key' };

/** createProject, as a Request the emulator handles in this process (no sockets: they would hold descriptors too). */
const projectRequest = (name: string) =>
  new Request('http://127.0.0.1:4010/v1/projects', {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ name, appName: name, orgId: 'org_demo' }),
  });

/** Open file descriptors of this process, where the system shows them (Linux); undefined elsewhere. */
const openFds = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : undefined);

describe('the emulator data file (src/emulator/store.ts)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'emulator-state-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Asserts the emulator refuses to start on `text` with exactly `message`, leaving the file as it was. */
  function refuses(name: string, text: string, message: (file: string) => string): void {
    const file = join(dir, name);
    writeFileSync(file, text);
    assert.throws(
      () => createEmulator({ dataFile: file }),
      (error: unknown) => {
        assert.ok(error instanceof EmulatorDataError, String(error));
        assert.equal(error.name, 'EmulatorDataError');
        assert.equal(error.message, message(file));
        return true;
      },
    );
    assert.equal(readFileSync(file, 'utf8'), text, 'left untouched');
  }

  it('refuses a file that is not JSON, quoting the parser', () => {
    let parserSays = '';
    try {
      JSON.parse('{"version": 1,');
    } catch (error) {
      parserSays = (error as Error).message;
    }
    refuses(
      'broken.json',
      '{"version": 1,',
      (file) =>
        `the data file ${file} is not valid JSON (${parserSays}); it was left untouched: fix it, or move it away to start from the seed data`,
    );
  });

  it('refuses JSON that is no data file of version 1: null, a string, an array, version 2', () => {
    const lists = Object.fromEntries(Object.entries(seedState()).filter(([, value]) => Array.isArray(value)));
    for (const [name, text] of [
      ['null.json', 'null'],
      ['string.json', '"version 1"'],
      ['array.json', '[1]'],
      ['v2.json', JSON.stringify({ ...lists, version: 2 })],
    ]) {
      refuses(
        name,
        text,
        (file) => `the data file ${file} is not an emulator data file of version 1; it was left untouched`,
      );
    }
  });

  it('refuses a file missing one list, naming it', () => {
    const { consents: _consents, ...rest } = seedState();
    refuses(
      'no-consents.json',
      JSON.stringify(rest),
      (file) => `the data file ${file} has no list "consents"; it was left untouched`,
    );
  });

  it('takes a token secret of 16 characters or more, refuses a shorter one or a number, and adds one when absent', async () => {
    const tooShort = (file: string) =>
      `the data file ${file} has a tokenSecret that is not a string of 16 characters or more; it was left untouched`;
    refuses('secret-15.json', JSON.stringify({ ...seedState(), tokenSecret: 's'.repeat(15) }), tooShort);
    refuses('secret-number.json', JSON.stringify({ ...seedState(), tokenSecret: 1234567890123456 }), tooShort);

    const sixteen = join(dir, 'secret-16.json');
    writeFileSync(sixteen, JSON.stringify({ ...seedState(), tokenSecret: 's'.repeat(16) }));
    await createEmulator({ dataFile: sixteen }).close();
    assert.equal(JSON.parse(readFileSync(sixteen, 'utf8')).tokenSecret, 's'.repeat(16));

    const none = join(dir, 'secret-none.json');
    const { tokenSecret: _secret, ...withoutSecret } = seedState();
    writeFileSync(none, JSON.stringify(withoutSecret));
    await createEmulator({ dataFile: none }).close();
    const added = JSON.parse(readFileSync(none, 'utf8')).tokenSecret;
    assert.equal(typeof added, 'string');
    assert.ok(added.length >= 16, added);
  });

  it('writes the file as text: JSON ending in a newline', async () => {
    const file = join(dir, 'newline.json');
    await createEmulator({ dataFile: file }).close();
    const text = readFileSync(file, 'utf8');
    assert.ok(text.endsWith('}\n'), JSON.stringify(text.slice(-5)));
    assert.equal(JSON.parse(text).version, 1);
  });

  it('deletes at start only the temporary files its own writer leaves, named <file>.<pid>.<8 hex>.tmp', async () => {
    const sub = mkdtempSync(join(dir, 'temps-'));
    const stray = ['state.json.4242.0badc0de.tmp', 'state.json.7.00000000.tmp'];
    const kept = [
      'state.json.bak', // the file's name and a dot, but no temp name after it
      'stateXjson.4242.0badc0de.tmp', // a temp name after something that is not the file's name
      'state.json.bak.4242.0badc0de.tmp', // a temp name, but not right after the file's name
      'state.json.4242.0badc0de.tmp.keep', // a temp name with more after it
      'state.json.x.0badc0de.tmp',
      'state.json.4242.0badc0d.tmp',
      'other.json.4242.0badc0de.tmp',
    ];
    for (const name of [...stray, ...kept]) writeFileSync(join(sub, name), 'x');
    await createEmulator({ dataFile: join(sub, 'state.json') }).close();
    assert.deepEqual(readdirSync(sub).sort(), [...kept, 'state.json'].sort());
  });

  it('refuses a data file it cannot write or read with EmulatorDataError quoting the system, creating nothing', () => {
    const missing = join(dir, 'no-such-folder');
    const file = join(missing, 'state.json');
    assert.throws(
      () => createEmulator({ dataFile: file }),
      (error: unknown) => {
        assert.ok(error instanceof EmulatorDataError, String(error));
        assert.ok(error.message.startsWith(`the data file ${file} could not be written (ENOENT: `), error.message);
        assert.equal((error.cause as NodeJS.ErrnoException).code, 'ENOENT');
        return true;
      },
    );
    assert.equal(existsSync(missing), false);

    const folder = mkdtempSync(join(dir, 'a-folder-'));
    assert.throws(
      () => createEmulator({ dataFile: folder }),
      (error: unknown) => {
        assert.ok(error instanceof EmulatorDataError, String(error));
        assert.ok(error.message.startsWith(`the data file ${folder} could not be read (EISDIR: `), error.message);
        assert.equal((error.cause as NodeJS.ErrnoException).code, 'EISDIR');
        return true;
      },
    );
    assert.deepEqual(readdirSync(folder), []);
  });

  it('reports a write that fails, answers 503 for its change, leaves no temporary file, and saves on the next change', async () => {
    const sub = mkdtempSync(join(dir, 'fails-'));
    const file = join(sub, 'state.json');
    const reported: unknown[][] = [];
    const consoleError = console.error;
    const emulator = createEmulator({ dataFile: file });
    const createProject = (name: string) => emulator.handle(projectRequest(name));
    try {
      // A folder (not empty) where the file was: renaming the written temp file onto it fails.
      rmSync(file);
      mkdirSync(file);
      writeFileSync(join(file, 'occupant'), 'x');
      console.error = (...args: unknown[]) => reported.push(args);
      // The change is made in memory but not on disk: its answer does not claim it (issue #23: answered means saved).
      const unsaved = await createProject('first');
      assert.equal(unsaved.status, 503);
      assert.match((await unsaved.json()).detail, /could not be saved to the data file/);
      await emulator.flush();
      console.error = consoleError;
      assert.equal(reported.length, 1);
      assert.equal(reported[0][0], `[emulator] could not save ${file}; the next change tries again:`);
      assert.ok(reported[0][1] instanceof Error);
      assert.deepEqual(readdirSync(sub), ['state.json'], 'no temporary file left');

      rmSync(file, { recursive: true });
      assert.equal((await createProject('second')).status, 201);
      await emulator.flush();
      const names = JSON.parse(readFileSync(file, 'utf8')).projects.map((p: { name: string }) => p.name);
      assert.deepEqual(names, ['demo', 'first', 'second']);
    } finally {
      console.error = consoleError;
      await emulator.close();
    }
  });

  it('closes every file it writes: at start and in the background', { skip: openFds() === undefined }, async () => {
    const file = join(dir, 'fds.json');
    const before = openFds()!;
    const emulator = createEmulator({ dataFile: file });
    assert.equal(openFds(), before, 'after the first write at start');
    for (let i = 0; i < 5; i++) {
      assert.equal((await emulator.handle(projectRequest(`fd-${i}`))).status, 201);
      await emulator.flush();
    }
    await emulator.close();
    assert.equal(openFds(), before, 'after five writes in the background');
  });
});
