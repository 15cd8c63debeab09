// Safe by default on a developer's machine (issue #23): with the default API key, which every web page can know,
// CORS answers only loopback origins (http(s)://localhost, *.localhost, 127.x, [::1], any port) and never grants
// Chromium's private-network access, so a page on the internet cannot drive the emulator from a developer's
// browser. An explicit corsOrigins (--cors-origin; '*' for any) or an API key of one's own opens more.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

const LOOPBACK = [
  'http://localhost',
  'http://localhost:5173',
  'https://localhost:8443',
  'http://app.localhost:3000',
  'http://LOCALHOST:4000',
  'http://127.0.0.1:8000',
  'http://127.5.6.7',
  'http://[::1]:3000',
];
const ELSEWHERE = [
  'http://app.example:3000',
  'https://evil.example',
  'http://localhost.evil.example',
  'http://127.0.0.1.nip.io',
  'http://10.0.0.5:3000',
  'http://[::2]:3000',
  'null',
  'file://',
];

const started: Emulator[] = [];
after(() => Promise.all(started.map((e) => e.close())));

async function start(options: Parameters<typeof createEmulator>[0] = {}) {
  const emulator = createEmulator(options);
  started.push(emulator);
  const info = await emulator.listen();
  const preflight = (origin: string, privateNetwork = false) =>
    fetch(`${info.baseUrl}/projects/demo`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
        ...(privateNetwork ? { 'access-control-request-private-network': 'true' } : {}),
      },
    });
  const get = (origin: string) =>
    fetch(`${info.baseUrl}/projects/demo`, { headers: { origin, 'x-api-key': emulator.apiKey } });
  return { emulator, info, preflight, get };
}

describe('emulator CORS: loopback only with the default API key', () => {
  it('answers loopback origins, echoing each and varying by Origin', async () => {
    const { preflight, get } = await start();
    for (const origin of LOOPBACK) {
      const pre = await preflight(origin);
      assert.equal(pre.status, 204, origin);
      assert.equal(pre.headers.get('access-control-allow-origin'), origin, origin);
      assert.match(pre.headers.get('vary') ?? '', /Origin/, origin);
      const answer = await get(origin);
      assert.equal(answer.status, 200, origin);
      assert.equal(answer.headers.get('access-control-allow-origin'), origin, origin);
      assert.match(answer.headers.get('access-control-expose-headers') ?? '', /x-request-id/, origin);
    }
  });

  it('refuses any other origin: a 403 preflight, and answers no script may read', async () => {
    const { preflight, get } = await start();
    for (const origin of ELSEWHERE) {
      const pre = await preflight(origin);
      assert.equal(pre.status, 403, origin);
      assert.equal(pre.headers.get('content-type'), 'application/problem+json', origin);
      assert.equal(pre.headers.get('access-control-allow-origin'), null, origin);
      const answer = await get(origin);
      assert.equal(answer.headers.get('access-control-allow-origin'), null, origin);
      assert.equal(answer.headers.get('access-control-expose-headers'), null, origin);
      assert.match(answer.headers.get('vary') ?? '', /Origin/, origin);
    }
  });

  it("never grants Chromium's private-network access, even to a loopback origin", async () => {
    const { preflight } = await start();
    for (const origin of [...LOOPBACK, 'https://evil.example']) {
      const pre = await preflight(origin, true);
      assert.equal(pre.headers.get('access-control-allow-private-network'), null, origin);
    }
  });

  it('opens to the origins given (corsOrigins), and to any with an API key of its own', async () => {
    const listed = await start({ corsOrigins: ['https://app.example'] });
    assert.equal((await listed.preflight('https://app.example')).status, 204);
    assert.equal(
      (await listed.preflight('https://app.example', true)).headers.get('access-control-allow-private-network'),
      'true',
      'an origin opened on purpose may reach the loopback server',
    );
    assert.equal((await listed.preflight('https://evil.example')).status, 403);
    assert.equal((await listed.preflight('http://localhost:5173')).status, 403, 'exactly the origins given');

    const any = await start({ corsOrigins: ['*'] });
    assert.equal((await any.preflight('https://evil.example')).headers.get('access-control-allow-origin'), '*');

    const ownKey = await start({ apiKey: 'a-key-of-my-own' });
    const pre = await ownKey.preflight('https://app.example', true);
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.equal(pre.headers.get('access-control-allow-private-network'), 'true');
    assert.equal((await ownKey.get('https://app.example')).headers.get('access-control-allow-origin'), '*');
  });

  it('says which origins it answers', async () => {
    assert.match(createEmulator().corsOrigins, /^loopback/);
    assert.equal(createEmulator({ apiKey: 'a-key-of-my-own' }).corsOrigins, '*');
    assert.equal(
      createEmulator({ corsOrigins: ['https://a.example', 'http://b.example:8080'] }).corsOrigins,
      'https://a.example, http://b.example:8080',
    );
  });
});

describe('emulator CLI: the CORS line of its banner', () => {
  const cli = fileURLToPath(new URL('../../src/emulator/cli.ts', import.meta.url));
  const children = new Set<ChildProcess>();
  after(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

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
