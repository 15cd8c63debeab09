// One lock per real file, links included: a symbolic link to the data file (or to a link to it, or to a file not
// written yet) shares the lock of the file it points to, so a second emulator through a link refuses to start; and an
// emulator started through a link reads and writes the file it points to, leaving the link a link. A loop of links,
// or a chain longer than the system follows (40), is refused: there is no file, and a write must not replace a link.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, EmulatorDataError } from '../../../src/emulator/index.js';
import { lockPathOf } from '../../../src/emulator/data-file-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-link-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const anotherEmulator = (error: unknown) =>
  error instanceof EmulatorDataError && /^another emulator \(process \d+\) is using the data file /.test(error.message);

describe('one lock per real data file, links included', () => {
  it('refuses a second emulator through a symbolic link to the data file, and one through a link to that link', async () => {
    const real = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    const linkToLink = join(dir, 'link-to-link.json');
    symlinkSync(real, link);
    symlinkSync(link, linkToLink);
    assert.equal(lockPathOf(link), lockPathOf(real));
    const first = createEmulator({ dataFile: real });
    try {
      assert.throws(() => createEmulator({ dataFile: link }), anotherEmulator, 'through the link');
      assert.throws(() => createEmulator({ dataFile: linkToLink }), anotherEmulator, 'through a link to the link');
    } finally {
      await first.close();
    }
    // The other way round: the link first, the file's own name refused.
    const throughLink = createEmulator({ dataFile: linkToLink });
    try {
      assert.throws(() => createEmulator({ dataFile: real }), anotherEmulator, 'the file itself');
    } finally {
      await throughLink.close();
    }
  });

  it('shares the lock of a file not written yet with a link to it', async () => {
    const real = join(dir, 'not-yet.json');
    const link = join(dir, 'not-yet-link.json');
    symlinkSync(real, link);
    const first = createEmulator({ dataFile: link });
    try {
      assert.throws(() => createEmulator({ dataFile: real }), anotherEmulator);
    } finally {
      await first.close();
    }
  });

  it('reads and writes the file a link points to, and leaves the link a link', async () => {
    const real = join(dir, 'kept.json');
    const link = join(dir, 'kept-link.json');
    symlinkSync(real, link);
    const emulator = createEmulator({ dataFile: link });
    try {
      const response = await emulator.handle(
        new Request('http://127.0.0.1/v1/projects', {
          method: 'POST',
          headers: { 'x-api-key': 'dev-api-key', 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'through-link', appName: 'x', orgId: 'org_demo' }),
        }),
      );
      assert.equal(response.status, 201);
    } finally {
      await emulator.close();
    }
    assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
    const names = JSON.parse(readFileSync(real, 'utf8')).projects.map((p: { name: string }) => p.name);
    assert.ok(names.includes('through-link'), 'the change is in the file the link points to');
    const again = createEmulator({ dataFile: real });
    try {
      assert.ok(
        again.state.projects.some((p) => p.name === 'through-link'),
        'one state, whatever the name',
      );
    } finally {
      await again.close();
    }
  });

  it('refuses a data file that is a loop of symbolic links, and leaves the links as they were', () => {
    const first = join(dir, 'loop-a.json');
    const second = join(dir, 'loop-b.json');
    symlinkSync(second, first);
    symlinkSync(first, second);
    assert.throws(
      () => createEmulator({ dataFile: first }),
      (error: unknown) =>
        error instanceof EmulatorDataError &&
        error.message === `the data file ${first} is a loop of symbolic links, or a chain of more than 40`,
    );
    assert.ok(lstatSync(first).isSymbolicLink() && lstatSync(second).isSymbolicLink(), 'both still links');
  });

  it('follows a chain of 40 links to the data file, and refuses a chain of 41', async () => {
    const end = join(dir, 'chain-end.json');
    const name = (i: number) => join(dir, `chain-${i}.json`);
    // chain-0 -> chain-1 -> ... -> chain-40 -> chain-end.json: 41 links from chain-0, 40 from chain-1.
    for (let i = 0; i <= 40; i++) symlinkSync(i === 40 ? end : name(i + 1), name(i));
    const emulator = createEmulator({ dataFile: name(1) });
    await emulator.close();
    assert.ok(existsSync(end) && !lstatSync(end).isSymbolicLink(), 'the file at the end of the chain was written');
    assert.throws(
      () => createEmulator({ dataFile: name(0) }),
      /is a loop of symbolic links, or a chain of more than 40$/,
    );
  });
});
