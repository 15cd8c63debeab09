// Rules of the emulator's dispatcher and server (src/emulator/emulator.ts) that StrykerJS showed no test held
// (npm run mutate -- emulator.server): the words of each option's TypeError and of each routing refusal, the
// projectIdOrName alias, answers without a body, the 500 for a request that breaks under the emulator, that reading
// never rewrites the data file, the addresses handed out when listening on every address, and listen(), close() and
// flush() as a caller sees them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator, type EmulatorOptions, type ListenInfo } from '../../src/emulator/index.js';

const KEY = { 'x-api-key': 'dev-api-key' };
const connectBody = { projectId: 'demo', provider: 'slack', groupRef: 'g', consumerRef: 'c' };

describe('the emulator dispatcher held by mutation testing (src/emulator/emulator.ts)', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  before(async () => {
    emulator = createEmulator({ verifyDelay: 0 });
    info = await emulator.listen();
  });
  after(() => emulator.close());

  const post = (path: string, body: string) =>
    fetch(`${info.baseUrl}${path}`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body });

  describe('options', () => {
    for (const [options, message] of [
      [{ apiKey: '' }, 'connect-provider emulator: apiKey must not be empty'],
      [{ verifyDelay: -1 }, 'connect-provider emulator: verifyDelay must be a number of milliseconds >= 0'],
      [{ urlFormat: 'xml' }, "connect-provider emulator: urlFormat is 'json' or 'text'"],
      [{ jwtSecret: 'x'.repeat(15) }, 'connect-provider emulator: jwtSecret must be 16 characters or more'],
      [{ publicUrl: 'ftp://emulator.example' }, 'connect-provider emulator: publicUrl is an http(s) URL'],
    ] as Array<[EmulatorOptions, string]>) {
      it(`refuses ${JSON.stringify(options)} with a TypeError saying what it takes`, () => {
        assert.throws(() => createEmulator(options), { name: 'TypeError', message });
      });
    }
  });

  describe('routing', () => {
    it('names the method and path of a route it does not have, under /v1 and elsewhere', async () => {
      const api = await fetch(`${info.baseUrl}/nothing/here`, { headers: KEY });
      assert.equal(api.status, 404);
      assert.equal((await api.json()).detail, 'no such route: GET /v1/nothing/here');
      // Outside its own paths, a Node listener hands the request on; handle() answers it.
      const other = await emulator.handle(new Request('http://emulator.test/elsewhere', { method: 'PUT' }));
      assert.equal(other.status, 404);
      assert.equal((await other.json()).detail, 'no such route: PUT /elsewhere');
    });

    it('counts and joins several problems of one request in the detail', async () => {
      const response = await post('/oauth-connect', JSON.stringify({ projectId: 'demo', provider: 'slack' }));
      const problem = await response.json();
      assert.equal(response.status, 400);
      assert.equal(problem.issues.length, 2);
      assert.equal(
        problem.detail,
        `2 problems: ${problem.issues.map((issue: { detail: string }) => issue.detail).join('; ')}`,
      );
    });

    it('answers a consent path that is not UTF-8 when decoded with a 400 saying so', async () => {
      const response = await fetch(`${info.url}/consent/%E0%A4%A`);
      assert.equal(response.status, 400);
      assert.equal((await response.json()).detail, 'the path is not valid percent-encoded UTF-8');
    });
  });

  describe('oauth-connect takes projectIdOrName for projectId', () => {
    it('when projectId is absent', async () => {
      const { projectId: _projectId, ...rest } = connectBody;
      const response = await post('/oauth-connect', JSON.stringify({ ...rest, projectIdOrName: 'demo' }));
      assert.equal(response.status, 200);
    });

    it('not in place of a projectId that is there', async () => {
      const response = await post('/oauth-connect', JSON.stringify({ ...connectBody, projectIdOrName: 'nope' }));
      assert.equal(response.status, 200, 'projectId demo wins over projectIdOrName');
    });

    it('and no other operation does', async () => {
      const response = await post(
        '/projects',
        JSON.stringify({ name: 'alias', appName: 'A', orgId: 'org_demo', projectIdOrName: 'demo' }),
      );
      assert.equal(response.status, 400);
      const names = (await response.json()).issues.map((issue: { name: string }) => issue.name);
      assert.deepEqual(names, ['projectIdOrName'], 'the one unknown property, and no projectId made from it');
    });

    it('and a body of null is a 400, not a failure', async () => {
      const response = await post('/oauth-connect', 'null');
      assert.equal(response.status, 400);
    });
  });

  it('answers 204 without a body or a content type', async () => {
    const deleted = await fetch(`${info.baseUrl}/projects/demo/connections/conn_demo`, {
      method: 'DELETE',
      headers: KEY,
    });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.headers.get('content-type'), null);
    assert.equal(await deleted.text(), '');
  });

  it('answers a request whose body breaks while read with a 500 problem, and logs it', async () => {
    const logged: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const response = await emulator.handle(
        new Request('http://emulator.test/v1/oauth-connect', {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: new ReadableStream({
            pull(controller) {
              controller.error(new Error('the client went away'));
            },
          }),
          // @ts-expect-error Node's fetch needs duplex for a streamed body; not in the DOM types.
          duplex: 'half',
        }),
      );
      assert.equal(response.status, 500);
      const problem = await response.json();
      assert.equal(problem.detail, 'the emulator failed to answer this request');
      assert.equal(problem.instance, `${info.baseUrl}/oauth-connect`);
      assert.equal(problem.requestId, response.headers.get('x-request-id'));
    } finally {
      console.error = consoleError;
    }
    assert.equal(logged.length, 1);
    assert.equal(logged[0][0], '[emulator] internal error');
    assert.equal((logged[0][1] as Error).message, 'the client went away');
  });
});

describe('the data file is rewritten for changes only (src/emulator/emulator.ts)', () => {
  it('reads leave the file as it is; a change replaces it; reads after it again leave it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-dispatch-'));
    const file = join(dir, 'state.json');
    const emulator = createEmulator({ dataFile: file });
    const call = (path: string, init: RequestInit = {}) =>
      emulator.handle(new Request(`http://emulator.test/v1${path}`, { ...init, headers: { ...KEY, ...init.headers } }));
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

describe('listen(), close() and flush() (src/emulator/emulator.ts)', () => {
  it('hands out the address a connection reached when listening on every IPv6 address, IPv4 ones included', async (t) => {
    const emulator = createEmulator();
    let info: ListenInfo;
    try {
      info = await emulator.listen(0, '::');
    } catch {
      t.skip('this machine cannot listen on ::');
      return;
    }
    try {
      const origin = `http://127.0.0.1:${new URL(info.url).port}`;
      const response = await fetch(`${origin}/v1/oauth-connect`, {
        method: 'POST',
        headers: { ...KEY, 'content-type': 'application/json' },
        body: JSON.stringify(connectBody),
      });
      assert.equal(response.status, 200);
      const url: string = await response.json();
      assert.ok(url.startsWith(`${origin}/consent/`), url);
    } finally {
      await emulator.close();
    }
  });

  it('rejects listen() on a port in use with the system error', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const emulator = createEmulator();
    try {
      await assert.rejects(emulator.listen(port), { code: 'EADDRINUSE' });
    } finally {
      await emulator.close();
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('stops serving at close(), and resolves flush() without a data file', async () => {
    const emulator = createEmulator();
    const info = await emulator.listen();
    assert.equal((await fetch(`${info.baseUrl}/providers/slack`)).status, 200);
    await emulator.flush();
    await emulator.close();
    assert.equal(emulator.info, undefined);
    await assert.rejects(fetch(`${info.baseUrl}/providers/slack`), TypeError);
  });
});
