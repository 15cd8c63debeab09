// A stale lock is taken over by exactly one emulator: after a kill -9 leaves the lock of a data file, emulators
// started on it at once never both run. Real child processes race: three long-lived ones take the lock of one data
// file at the same instant, round after round, each round after a lock naming a gone process is left there; and
// three CLIs are started at once on a --data file whose lock a killed CLI left.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { lockPathOf } from '../../../src/emulator/data-file-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-lock-race-'));
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const lockModule = new URL('../../../src/emulator/data-file-lock.ts', import.meta.url).href;
const cli = fileURLToPath(new URL('../../../src/emulator/cli.ts', import.meta.url));
const ROUNDS = Number(process.env.LOCK_RACE_ROUNDS ?? 60);
const CLI_ROUNDS = Number(process.env.LOCK_RACE_CLI_ROUNDS ?? 4);

/** The pid of a process that has exited. */
const gonePid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

/** A lock left by a killed emulator: it names a process that is gone. */
const leaveStaleLock = (file: string) => writeFileSync(lockPathOf(file), JSON.stringify({ pid: gonePid(), file }));

/**
 * A process that takes the lock of `file` on each line `go` (answering `won`, or `lost <reason>`) and releases it on
 * `release` (answering `released`).
 */
function racer(file: string) {
  const code = `
    const { lockDataFile } = await import(${JSON.stringify(lockModule)});
    const { createInterface } = await import('node:readline');
    let release;
    process.stdout.write('ready\\n');
    for await (const line of createInterface({ input: process.stdin })) {
      if (line === 'go') {
        try {
          release = lockDataFile(${JSON.stringify(file)});
          process.stdout.write('won\\n');
        } catch (error) {
          process.stdout.write('lost ' + error.message.replace(/\\n/g, ' ') + '\\n');
        }
      } else if (line === 'release') {
        release?.();
        release = undefined;
        process.stdout.write('released\\n');
      }
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(child);
  const lines: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(line);
    } else lines.push(line);
  });
  const next = () =>
    lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise<string>((resolve) => (waiting = resolve));
  return {
    next,
    send: (line: string) => child.stdin!.write(`${line}\n`),
    stop: () => child.stdin!.end(),
  };
}

describe('a stale lock is taken over by exactly one emulator', () => {
  it(`lets exactly one of three processes taking a stale lock at once win, round after round`, async (t) => {
    const file = join(dir, 'raced.json');
    const racers = [racer(file), racer(file), racer(file)];
    for (const r of racers) assert.equal(await r.next(), 'ready');
    const winsPerRound: number[] = [];
    const lostReasons = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      leaveStaleLock(file);
      for (const r of racers) r.send('go');
      const answers = await Promise.all(racers.map((r) => r.next()));
      winsPerRound.push(answers.filter((a) => a === 'won').length);
      for (const a of answers) if (a !== 'won') lostReasons.add(a.replace(/process \d+/, 'process N'));
      const winners = racers.filter((_, i) => answers[i] === 'won');
      for (const r of winners) r.send('release');
      for (const r of winners) assert.equal(await r.next(), 'released');
    }
    for (const r of racers) r.stop();
    const both = winsPerRound.filter((n) => n > 1).length;
    const none = winsPerRound.filter((n) => n === 0).length;
    t.diagnostic(`${ROUNDS} rounds of 3 at once: ${both} with two or more winners, ${none} with none`);
    assert.equal(both, 0, `two or more ran in ${both} of ${ROUNDS} rounds`);
    assert.equal(none, 0, `none took the stale lock in ${none} of ${ROUNDS} rounds`);
    // A loser is told that another emulator holds the data file, never that the lock keeps changing hands.
    for (const reason of lostReasons)
      assert.match(reason, /^lost another emulator \(process N\) is using the data file/);
  });

  /** Starts the CLI on `file`; resolves `running` once its banner is out, `exited` (with stderr) if it exits. */
  function startCli(file: string): Promise<{ child: ChildProcess; running: boolean; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--data', file], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let out = '';
      let err = '';
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        if (/^project:/m.test(out)) resolve({ child, running: true, stderr: err });
      });
      child.stderr!.on('data', (chunk) => (err += chunk));
      child.on('exit', () => {
        children.delete(child);
        resolve({ child, running: false, stderr: err });
      });
    });
  }

  it('runs exactly one of three CLIs started at once on a --data file whose lock a killed CLI left', async (t) => {
    const file = join(dir, 'cli.json');
    let both = 0;
    for (let round = 0; round < CLI_ROUNDS; round++) {
      leaveStaleLock(file);
      const started = await Promise.all([startCli(file), startCli(file), startCli(file)]);
      const running = started.filter((s) => s.running);
      if (running.length > 1) both++;
      assert.ok(running.length >= 1, started.map((s) => s.stderr).join('\n'));
      for (const s of started.filter((x) => !x.running)) assert.match(s.stderr, /another emulator \(process \d+\)/);
      await Promise.all(
        running.map(
          ({ child }) =>
            new Promise<void>((resolve) => {
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
    }
    t.diagnostic(`${CLI_ROUNDS} rounds of 3 CLIs at once: ${both} with two or more running`);
    assert.equal(both, 0);
  });
});
