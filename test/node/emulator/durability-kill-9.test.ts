// --data survives kill -9: every create answered 201 is there after the CLI is killed mid-write and restarted, ten
// times over (the file is never left unreadable, the killed process's lock is taken over).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../../src/emulator/cli.ts', import.meta.url));
const ROUNDS = 10;
const CONCURRENCY = 8;
const KEY = 'kill-loop-key';
const dir = mkdtempSync(join(tmpdir(), 'emulator-kill-loop-'));
const dataFile = join(dir, 'state.json');
const children = new Set<ChildProcess>();

after(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the CLI on the data file and resolves with its base URL once the banner is out; rejects if it exits. */
function start(): Promise<{ child: ChildProcess; baseUrl: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, '--port', '0', '--data', dataFile, '--api-key', KEY, '--verify-delay', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.add(child);
    child.on('exit', () => children.delete(child));
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no banner within 15 s: ${err}`));
    }, 15_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const url = /^base url: (\S+)$/m.exec(out)?.[1];
      if (url && /^project:/m.test(out)) {
        clearTimeout(timer);
        resolve({ child, baseUrl: url });
      }
    });
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code ?? signal}) before its banner: ${err}`));
    });
  });
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('emulator CLI: --data under kill -9', () => {
  it(`keeps every acknowledged create across ${ROUNDS} SIGKILLs`, { timeout: 60_000 }, async (t) => {
    const acknowledged: string[] = [];
    let firingMs = 0;
    let seq = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { child, baseUrl } = await start();
      const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
      // Everything acknowledged before this start is there.
      const missing: string[] = [];
      for (let i = 0; i < acknowledged.length; i += 32) {
        const batch = acknowledged.slice(i, i + 32);
        const statuses = await Promise.all(
          batch.map(async (name) => {
            const response = await fetch(`${baseUrl}/projects/${name}`, { headers });
            await response.arrayBuffer();
            return response.status;
          }),
        );
        statuses.forEach((status, j) => status !== 200 && missing.push(`${batch[j]} (${status})`));
      }
      assert.deepEqual(missing, [], `round ${round}: acknowledged creates missing after kill -9`);

      // Fire creates from CONCURRENCY workers; kill -9 after a while, creates still in flight.
      let killed = false;
      const began = performance.now();
      const worker = async () => {
        while (!killed) {
          const name = `kill-${round}-${seq++}`;
          try {
            const response = await fetch(`${baseUrl}/projects`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ appName: 'Kill loop', name, orgId: 'org_demo' }),
            });
            if (response.status === 201) acknowledged.push(name);
            else if (!killed) assert.fail(`create ${name}: ${response.status} ${await response.text()}`);
            await response.arrayBuffer().catch(() => {});
          } catch (error) {
            if (!killed) throw error;
          }
        }
      };
      const workers = Array.from({ length: CONCURRENCY }, worker);
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(Math.random() * 250)));
      killed = true;
      await kill9(child);
      firingMs += performance.now() - began;
      await Promise.all(workers);
    }
    // And once more after the last kill.
    const { child, baseUrl } = await start();
    const headers = { 'x-api-key': KEY };
    for (const name of acknowledged) {
      const response = await fetch(`${baseUrl}/projects/${name}`, { headers });
      await response.arrayBuffer();
      assert.equal(response.status, 200, `${name} acknowledged but missing after the last kill -9`);
    }
    await kill9(child);
    assert.ok(acknowledged.length >= ROUNDS, `few creates acknowledged: ${acknowledged.length}`);
    t.diagnostic(
      `${acknowledged.length} creates acknowledged in ${ROUNDS} rounds, all there after kill -9; ` +
        `${Math.round((acknowledged.length / firingMs) * 1000)} acknowledged creates/s with --data (${CONCURRENCY} at a time)`,
    );
  });
});
