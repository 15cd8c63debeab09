// The emulator's command line: its flags, its banner, and --data across restarts.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPlatformClient } from '../../../src/api/index.js';

const cli = fileURLToPath(new URL('../../../src/emulator/cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'emulator-data-'));
/** Every child started: a failing test still leaves none running. */
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});
const BANNER_TIMEOUT_MS = 15000;

interface Started {
  child: ChildProcess;
  lines: string[];
  stop(): Promise<void>;
}

/** Starts the CLI and waits for its banner (ending with the project line) or its exit; kills it after a time-out. */
function startCli(args: string[]): Promise<Started & { code?: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the emulator printed no banner within ${BANNER_TIMEOUT_MS} ms: ${stderr}`));
    }, BANNER_TIMEOUT_MS);
    const lines: string[] = [];
    let stderr = '';
    let buffer = '';
    const stop = () =>
      new Promise<void>((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      });
    child.stdout!.on('data', (chunk) => {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
      if (lines.some((l) => l.startsWith('project:'))) {
        clearTimeout(timer);
        resolve({ child, lines, stop, stderr });
      }
    });
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ child, lines, stop, code, stderr });
    });
  });
}

describe('emulator CLI', () => {
  it('prints the listening line, URLs, API key and a working bearer token', async () => {
    const started = await startCli(['--port', '0', '--api-key', 'k-cli', '--verify-delay', '0']);
    try {
      const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(started.lines[0])?.[1];
      assert.ok(url, started.lines.join('\n'));
      assert.ok(started.lines.includes(`base url: ${url}/v1`));
      assert.ok(started.lines.includes(`search url: ${url}/search/v1`));
      assert.ok(started.lines.includes('api key: k-cli'));
      const token = /^bearer token: (\S+)$/.exec(started.lines.find((l) => l.startsWith('bearer token:'))!)![1];
      const client = createPlatformClient({ baseUrl: `${url}/v1`, accessToken: token });
      assert.equal((await client.listInvites({ orgId: 'org_demo' })).length, 3);
    } finally {
      await started.stop();
    }
  });

  it('exits 2 with a usage message on bad flags', async () => {
    const bad = [
      ['--port', 'x'],
      ['--verify-delay', '-1'],
      ['--nope'],
      ['--url-format', 'xml'],
      ['--token-secret', 'short'],
      ['--public-url', 'ftp://x.example'],
      ['--cors-origin', 'not an origin'],
    ];
    for (const args of bad) {
      const result = await startCli(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /usage: connect-provider-emulator/);
    }
  });

  it('narrows CORS to --cors-origin, signs with --token-secret and hands out --public-url URLs', async () => {
    const flags = ['--port', '0', '--cors-origin', 'http://app.example', '--cors-origin', 'http://other.example:8080'];
    const secret = ['--token-secret', 'a-shared-secret-of-some-length'];
    const first = await startCli([...flags, ...secret, '--public-url', 'https://platform.test']);
    const second = await startCli(['--port', '0', ...secret]);
    try {
      const url = /^listening on (\S+)$/.exec(first.lines[0])![1];
      const preflight = (origin: string) =>
        fetch(`${url}/v1/projects/demo`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET' },
        });
      assert.equal(
        (await preflight('http://app.example')).headers.get('access-control-allow-origin'),
        'http://app.example',
      );
      assert.equal((await preflight('http://other.example:8080')).status, 204);
      assert.equal((await preflight('http://evil.example')).status, 403);
      const consent = await createPlatformClient({ baseUrl: `${url}/v1`, apiKey: 'dev-api-key' }).oauthConnect({
        projectId: 'demo',
        provider: 'slack',
        groupRef: 'g',
        consumerRef: 'c',
      });
      assert.match(consent, /^https:\/\/platform\.test\/consent\//);
      const token = /^bearer token: (\S+)$/.exec(second.lines.find((l) => l.startsWith('bearer token:'))!)![1];
      const invites = await createPlatformClient({ baseUrl: `${url}/v1`, accessToken: token }).listInvites({
        orgId: 'org_demo',
      });
      assert.equal(invites.length, 3, "one emulator accepts the other's token: both sign with --token-secret");
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it('keeps state across restarts with --data, and refuses a corrupt file untouched', async () => {
    const file = join(dir, 'state.json');
    const first = await startCli(['--port', '0', '--data', file]);
    const url = /^listening on (\S+)$/.exec(first.lines[0])![1];
    const client = createPlatformClient({ baseUrl: `${url}/v1`, apiKey: 'dev-api-key' });
    await client.createProject({ appName: 'Kept', name: 'kept', orgId: 'org_demo' });
    await client.deleteDestination({ projectIdOrName: 'demo', destination: 'dest_audit' });
    await first.stop();

    const second = await startCli(['--port', '0', '--data', file]);
    const url2 = /^listening on (\S+)$/.exec(second.lines[0])![1];
    const client2 = createPlatformClient({ baseUrl: `${url2}/v1`, apiKey: 'dev-api-key' });
    assert.deepEqual(
      (await client2.listDestinations({ projectIdOrName: 'demo' })).map((d) => d.id),
      ['dest_webhook'],
    );
    const conflict = await client2.createProject({ appName: 'Kept', name: 'kept', orgId: 'org_demo' }).catch((e) => e);
    assert.equal(conflict.status, 409, 'the project created before the restart is still there');
    await second.stop();
    assert.deepEqual(readdirSync(dir), ['state.json'], 'no temporary file is left behind');

    writeFileSync(file, '{"version": 1, "orgs": [');
    const corrupt = await startCli(['--port', '0', '--data', file]);
    assert.equal(corrupt.code, 2);
    assert.match(corrupt.stderr, /is not valid JSON/);
    assert.equal(readFileSync(file, 'utf8'), '{"version": 1, "orgs": [', 'the corrupt file is left as it was');
  });

  it('exits 2 with one line when --data names a file it cannot write', async () => {
    const file = join(dir, 'no-such-folder', 'state.json');
    const result = await startCli(['--port', '0', '--data', file]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^connect-provider-emulator: the data file .+ could not be written \(ENOENT: /);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  });
});

describe('emulator CLI: the CORS line of its banner', () => {
  /** The banner's lines up to its project line. */
  function banner(args: string[]): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      const timer = setTimeout(() => reject(new Error('no banner within 15 s')), 15000);
      let text = '';
      child.stdout!.on('data', (chunk) => {
        text += chunk;
        if (/^project:/m.test(text)) {
          clearTimeout(timer);
          child.kill('SIGTERM');
          resolve(text.split('\n'));
        }
      });
      child.on('exit', () => {
        clearTimeout(timer);
        resolve(text.split('\n'));
      });
    });
  }

  it('prints which origins CORS answers', async () => {
    const [loopback, listed, ownKey] = await Promise.all([
      banner([]),
      banner(['--cors-origin', 'https://app.example', '--cors-origin', 'http://localhost:5173']),
      banner(['--api-key', 'a-key-of-my-own']),
    ]);
    const cors = (lines: string[]) => lines.find((l) => l.startsWith('cors origins: '));
    assert.equal(
      cors(loopback),
      'cors origins: loopback only (http(s)://localhost, *.localhost, 127.x.x.x, [::1], any port); --cors-origin opens more',
    );
    assert.equal(cors(listed), 'cors origins: https://app.example, http://localhost:5173');
    assert.equal(cors(ownKey), 'cors origins: any (*)');
  });
});
