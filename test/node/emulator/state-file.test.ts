// The data file (--data): which files it refuses and with what words, how it is written (whole, for changes only,
// every descriptor closed), and what it restarts from.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, EmulatorDataError } from '../../../src/emulator/index.js';
import { LIMITS } from '../../../src/emulator/limits.js';
import { seedState } from '../../../src/emulator/seed.js';
import { decide } from '../helpers/consent.js';
import { connectBody, KEY, nested, post, withEmulator } from '../helpers/emulator.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** createProject, as a Request the emulator handles in this process (no sockets: they would hold descriptors too). */
const projectRequest = (name: string) =>
  new Request('http://127.0.0.1:4010/v1/projects', {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ name, appName: name, orgId: 'org_demo' }),
  });

/** Open file descriptors of this process, where the system shows them (Linux); undefined elsewhere. */
const openFds = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : undefined);

describe('the emulator data file: what it refuses and how it is written', () => {
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
      // The change is made in memory but not on disk: its answer does not claim it (answered means saved).
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

describe('the emulator data file, as readers and restarts see it', () => {
  /** Reads all of an open file from its start, through that descriptor. */
  function readThrough(fd: number): string {
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(64 * 1024);
    let position = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, position);
      if (n === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
      position += n;
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  it('of another shape is refused with EmulatorDataError', () => {
    const file = join(dir, 'other.json');
    writeFileSync(file, JSON.stringify({ version: 1, orgs: [] }));
    assert.throws(() => createEmulator({ dataFile: file }), EmulatorDataError);
    writeFileSync(file, JSON.stringify({ hello: 'world' }));
    assert.throws(() => createEmulator({ dataFile: file }), /not an emulator data file/);
  });

  it('is replaced whole: a reader that opened it before a write still reads the complete old document', async () => {
    const file = join(dir, 'atomic.json');
    await withEmulator({ dataFile: file }, async (e) => {
      const before = readFileSync(file, 'utf8');
      const fd = openSync(file, 'r');
      try {
        const response = await post(`${e.info.baseUrl}/projects`, {
          appName: 'Atomic',
          name: 'atomic',
          orgId: 'org_demo',
        });
        assert.equal(response.status, 201);
        await e.emulator.flush();
        assert.equal(readThrough(fd), before, 'the old file was not written over in place');
      } finally {
        closeSync(fd);
      }
      assert.ok(JSON.parse(readFileSync(file, 'utf8')).projects.some((p: { name: string }) => p.name === 'atomic'));
    });
  });

  it('is always whole to a concurrent reader, and leaves no temporary file behind', async () => {
    const sub = mkdtempSync(join(dir, 'many-'));
    const file = join(sub, 'state.json');
    await withEmulator({ dataFile: file }, async (e) => {
      let reads = 0;
      const urls: Array<Promise<Response>> = [];
      for (let i = 0; i < 40; i++) {
        urls.push(
          post(
            `${e.info.baseUrl}/oauth-connect`,
            connectBody({ groupRef: `many-${i}`, providerMetadata: { pad: 'p'.repeat(LIMITS.metadataBytes - 100) } }),
          ),
        );
        JSON.parse(readFileSync(file, 'utf8'));
        reads++;
      }
      await Promise.all(urls);
      for (let i = 0; i < 20; i++) {
        JSON.parse(readFileSync(file, 'utf8'));
        reads++;
        await new Promise((r) => setImmediate(r));
      }
      await e.emulator.flush();
      assert.equal(reads, 60);
      assert.deepEqual(readdirSync(sub), ['state.json']);
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).consents.length, 40);
    });
  });

  it('restarts from what a crafted request made it write', async () => {
    const file = join(dir, 'crafted.json');
    const metadata = {
      constructor: { prototype: { x: 1 } },
      text: 'lone \ud800 surrogate, \u2028 separators, </script> and "quotes"',
      deep: nested(LIMITS.metadataDepth - 1),
      list: Array.from({ length: 100 }, (_, i) => i),
    };
    const raw = JSON.stringify(connectBody({ groupRef: 'crafted', providerMetadata: metadata })).replace(
      '"text"',
      '"__proto__":{"a":1},"text"',
    );
    let id: string;
    let stored: unknown;
    {
      await withEmulator({ dataFile: file }, async (e) => {
        const response = await fetch(`${e.info.baseUrl}/oauth-connect`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: raw,
        });
        assert.equal(response.status, 200);
        const url = await response.json();
        const decided = await decide(url, 'allow');
        assert.equal(decided.status, 303);
        id = e.emulator.state.connections.find((c) => c.group.groupRef === 'crafted')!.id;
        stored = await (await fetch(`${e.info.baseUrl}/projects/demo/connections/${id}`, { headers: KEY })).json();
      });
    }
    await withEmulator({ dataFile: file }, async (e) => {
      const again = (await (
        await fetch(`${e.info.baseUrl}/projects/demo/connections/${id}`, { headers: KEY })
      ).json()) as { providerMetadata: object };
      assert.deepEqual(again, stored);
      assert.deepEqual(
        Object.getOwnPropertyDescriptor(again.providerMetadata, '__proto__')?.value,
        { a: 1 },
        'kept as data',
      );
    });
  });
});

describe('the emulator data file is rewritten for changes only', () => {
  it('reads leave the file as it is; a change replaces it; reads after it again leave it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-dispatch-'));
    const file = join(dir, 'state.json');
    const emulator = createEmulator({ dataFile: file });
    const call = (path: string, init: RequestInit = {}) =>
      emulator.handle(new Request(`http://127.0.0.1/v1${path}`, { ...init, headers: { ...KEY, ...init.headers } }));
    /** The file's inode: each write renames a new file into place. */
    const inode = () => statSync(file).ino;
    try {
      const start = inode();
      assert.equal((await call('/projects/demo')).status, 200);
      await emulator.flush();
      assert.equal(inode(), start, 'a read does not rewrite the file');
      const created = await call('/projects', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'written', appName: 'W', orgId: 'org_demo' }),
      });
      assert.equal(created.status, 201);
      await emulator.flush();
      const written = inode();
      assert.notEqual(written, start, 'a change rewrites it');
      assert.equal((await call('/projects/written')).status, 200);
      await emulator.flush();
      assert.equal(inode(), written, 'reads after a change do not rewrite it again');
    } finally {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
