// DNS rebinding (src/emulator/hosts.ts): a page on the internet whose name resolves again to 127.0.0.1 sends
// same-origin requests, so CORS never applies; only Host still names it. With the default API key the emulator answers
// loopback names only (localhost, *.localhost, 127.0.0.0/8, [::1]) and the names given on purpose: any other Host is
// a 403 problem, before anything is read, changed or handed out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createEmulator } from '../../../src/emulator/index.js';
import { withEmulator, type Started } from '../helpers/emulator.js';

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to the emulator's port with this exact Host header (fetch cannot set one). */
function send(
  started: Pick<Started, 'info'>,
  host: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Sent> {
  const port = Number(new URL(started.info.url).port);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { host, 'x-api-key': 'dev-api-key', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const portOf = (started: Pick<Started, 'info'>) => new URL(started.info.url).port;

describe('the emulator and DNS rebinding', () => {
  it('refuses a rebinding page (Host and Origin attacker.example:P) with the default key, on every path', async () => {
    await withEmulator({}, async (started) => {
      const attacker = `attacker.example:${portOf(started)}`;
      const page = { origin: `http://${attacker}` };
      const json = { ...page, 'content-type': 'application/json' };
      const consent = JSON.stringify({ projectId: 'demo', provider: 'slack', groupRef: 'acme', consumerRef: 'eve' });
      const attempts: Array<[string, string, Record<string, string>, string?]> = [
        ['GET', '/v1/projects/demo/connections/conn_demo?includeCreds=true&includeRefreshToken=true', page],
        ['GET', '/v1/projects/demo/connections', page],
        ['POST', '/v1/oauth-connect', json, consent],
        ['DELETE', '/v1/projects/demo/connections/conn_demo', page],
        ['GET', '/v1/providers/slack', page],
        ['GET', '/consent/anything', page],
        ['GET', '/media/slack.svg', page],
        ['OPTIONS', '/v1/oauth-connect', { ...page, 'access-control-request-method': 'POST' }],
      ];
      for (const [method, path, headers, body] of attempts) {
        const answer = await send(started, attacker, method, path, headers, body);
        assert.equal(answer.status, 403, `${method} ${path}: ${answer.body}`);
        assert.equal(answer.headers['content-type'], 'application/problem+json');
        const problem = JSON.parse(answer.body);
        assert.equal(problem.status, 403);
        assert.match(problem.detail, /not a loopback name.*--allowed-host/);
        assert.ok(!answer.body.includes('refresh'), answer.body);
        assert.equal(answer.headers['access-control-allow-origin'], undefined);
      }
      // Nothing was handed out or changed: the seed's connection is still there, and no consent link was made.
      assert.ok(started.emulator.state.connections.some((c) => c.id === 'conn_demo'));
      const direct = await started.emulator.handle(
        new Request('http://attacker.example/v1/projects/demo/connections', {
          headers: { 'x-api-key': 'dev-api-key' },
        }),
      );
      assert.equal(direct.status, 403, 'handle() judges the Host of the request URL alike');
    });
  });

  it('answers every loopback name and address', async () => {
    await withEmulator({}, async (started) => {
      const port = portOf(started);
      for (const host of [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `LOCALHOST.:${port}`,
        `app.localhost:${port}`,
        `127.8.9.10:${port}`,
        `[::1]:${port}`,
        'localhost',
      ]) {
        const answer = await send(started, host, 'GET', '/v1/projects/demo');
        assert.equal(answer.status, 200, `${host}: ${answer.body}`);
      }
    });
  });

  it('answers names given on purpose: allowedHosts, publicUrl, "*", or a key of its own', async () => {
    await withEmulator({ allowedHosts: ['Emulator.LAN', '192.168.1.5', '::2'] }, async (started) => {
      const port = portOf(started);
      for (const host of [`emulator.lan:${port}`, `192.168.1.5:${port}`, `[::2]:${port}`]) {
        assert.equal((await send(started, host, 'GET', '/v1/projects/demo')).status, 200, host);
      }
      assert.equal((await send(started, `attacker.example:${port}`, 'GET', '/v1/projects/demo')).status, 403);
    });
    await withEmulator({ publicUrl: 'https://dev.example:8443' }, async (started) => {
      assert.equal((await send(started, 'dev.example:8443', 'GET', '/v1/projects/demo')).status, 200);
      assert.equal((await send(started, 'other.example', 'GET', '/v1/projects/demo')).status, 403);
    });
    await withEmulator({ allowedHosts: '*' }, async (started) => {
      assert.equal((await send(started, 'attacker.example', 'GET', '/v1/projects/demo')).status, 200);
    });
    await withEmulator({ apiKey: 'a-key-of-my-own-9Xq' }, async (started) => {
      const answer = await send(started, 'attacker.example', 'GET', '/v1/projects/demo', {
        'x-api-key': 'a-key-of-my-own-9Xq',
      });
      assert.equal(answer.status, 200, 'a key of its own is no public knowledge');
    });
  });

  it('reads an allowed name as a URL holds it: spaces around it, capitals, a trailing dot, IPv6 with or without brackets', async () => {
    await withEmulator({ allowedHosts: [' Emulator.LAN. ', '[fd00::1]', 'FD00::2'] }, async (started) => {
      const port = portOf(started);
      for (const host of [`emulator.lan:${port}`, `EMULATOR.lan.:${port}`, `[fd00::1]:${port}`, `[fd00::2]:${port}`]) {
        const answer = await send(started, host, 'GET', '/v1/projects/demo');
        assert.equal(answer.status, 200, `${host}: ${answer.body}`);
      }
      assert.equal((await send(started, `[fd00::3]:${port}`, 'GET', '/v1/projects/demo')).status, 403);
    });
  });

  it('answers only the names listed when a key of its own comes with allowedHosts', async () => {
    const apiKey = 'a-key-of-my-own-7Rt';
    await withEmulator({ apiKey, allowedHosts: ['emulator.lan'] }, async (started) => {
      const headers = { 'x-api-key': apiKey };
      assert.equal((await send(started, 'emulator.lan', 'GET', '/v1/projects/demo', headers)).status, 200);
      assert.equal((await send(started, 'attacker.example', 'GET', '/v1/projects/demo', headers)).status, 403);
    });
  });

  it('names the refused Host, and the options that would allow it', async () => {
    await withEmulator({}, async (started) => {
      const answer = await send(started, `Attacker.Example.:${portOf(started)}`, 'GET', '/v1/projects/demo');
      assert.equal(answer.status, 403, answer.body);
      const { detail } = JSON.parse(answer.body) as { detail: string };
      assert.equal(
        detail,
        'the Host attacker.example is not a loopback name: with the default API key the emulator answers only ' +
          'localhost, *.localhost, 127.x.x.x and [::1], so that no web page reaches it by DNS rebinding; to serve it ' +
          'under another name on purpose, pass --allowed-host NAME (allowedHosts in code) or --public-url',
      );
    });
  });

  it('refuses an allowed host that is no plain name or address', () => {
    for (const name of ['http://x.example', 'x.example:80', '[fd00::1]:8080', 'x.example/path', '', ' ', '.', 'a b']) {
      assert.throws(() => createEmulator({ allowedHosts: [name] }), /is not a host name or address/, name);
    }
  });

  it('answers the names given with --allowed-host on the command line', { timeout: 30_000 }, async () => {
    const cli = fileURLToPath(new URL('../../../src/emulator/cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--allowed-host', 'emulator.lan'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (chunk) => {
          out += chunk;
          const listening = /^listening on (\S+)$/m.exec(out);
          if (listening) resolve(listening[1]);
        });
        child.once('exit', (code) => reject(new Error(`the emulator exited (${code}): ${out}`)));
      });
      const started = { info: { url, baseUrl: `${url}/v1`, searchUrl: `${url}/search/v1` } };
      const port = portOf(started);
      assert.equal((await send(started, `emulator.lan:${port}`, 'GET', '/v1/projects/demo')).status, 200);
      assert.equal((await send(started, `attacker.example:${port}`, 'GET', '/v1/projects/demo')).status, 403);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
