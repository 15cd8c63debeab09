// What no request, however crafted, may do to the emulator: bloat or break its
// state and its data file, read unbounded bodies, evict another group's consent
// links, crash on a malformed path, hand out URLs from its Host header, or be
// impersonated with a token minted from the default API key.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, EmulatorDataError, type Emulator } from '../../src/emulator/index.js';
import { signJwt } from '../../src/emulator/jwt.js';
import { LIMITS } from '../../src/emulator/limits.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-robust-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const KEY = { 'x-api-key': 'dev-api-key' };

type Started = { emulator: Emulator; info: Awaited<ReturnType<Emulator['listen']>> };

/** Runs `body` against a freshly started emulator, and closes it (waiting for its data file) whatever happens. */
async function withEmulator(
  options: Parameters<typeof createEmulator>[0],
  body: (e: Started) => Promise<void>,
): Promise<void> {
  const emulator = createEmulator({ verifyDelay: 0, ...options });
  const info = await emulator.listen();
  try {
    await body({ emulator, info });
  } finally {
    await emulator.close();
  }
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const connectBody = (extra: Record<string, unknown> = {}) => ({
  projectId: 'demo',
  provider: 'slack',
  groupRef: 'g',
  consumerRef: 'c',
  ...extra,
});

/** Nested objects {"a": {"a": ... {}}}, `depth` levels deep counting the outer one. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

async function allow(url: string, decision = 'allow'): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
    redirect: 'manual',
  });
}

/** Sends a body chunk by chunk until the server answers; resolves with the status and how much was sent. */
function streamUntilAnswered(
  url: string,
  method: string,
  headers: Record<string, string>,
  maxBytes: number,
): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    let answered = false;
    const req = httpRequest(url, { method, headers: { ...headers, 'transfer-encoding': 'chunked' } });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode!, sent });
      req.destroy();
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < maxBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** A raw request with a chosen Host header (fetch does not let one set it). */
function withHost(
  url: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(url, { method: init.method ?? 'GET', headers: { ...init.headers, host } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end(init.body);
    },
  );
}

describe('emulator robustness', () => {
  describe('bounded inputs', () => {
    it('refuses providerMetadata nested deeper than the limit, or larger, with a 400 issue', async () => {
      await withEmulator({}, async (e) => {
        const ok = await post(
          `${e.info.baseUrl}/oauth-connect`,
          connectBody({ providerMetadata: nested(LIMITS.metadataDepth) }),
        );
        assert.equal(ok.status, 200);
        for (const metadata of [nested(LIMITS.metadataDepth + 1), { blob: 'x'.repeat(LIMITS.metadataBytes) }]) {
          const response = await post(`${e.info.baseUrl}/oauth-connect`, connectBody({ providerMetadata: metadata }));
          assert.equal(response.status, 400);
          const problem = await response.json();
          assert.deepEqual(
            problem.issues.map((i: { name: string }) => i.name),
            ['providerMetadata'],
          );
        }
      });
    });

    it('refuses any JSON body nested thousands deep with a 400, and stores nothing of it', async () => {
      const file = join(dir, 'deep.json');
      await withEmulator({ dataFile: file }, async (e) => {
        const size = statSync(file).size;
        const deep = '{"x":' + '['.repeat(4100) + ']'.repeat(4100) + '}';
        const body = JSON.stringify(connectBody()).replace(/^\{/, `{"providerMetadata":${deep},`);
        const response = await fetch(`${e.info.baseUrl}/oauth-connect`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body,
        });
        assert.equal(response.status, 400);
        const extra = await fetch(`${e.info.baseUrl}/oauth-connect`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify(connectBody()).replace(/^\{/, `{"unrelated":${deep},`),
        });
        assert.equal(extra.status, 400, 'also in a property the operation does not store');
        await e.emulator.flush();
        assert.equal(statSync(file).size, size);
      });
    });

    it('refuses oversized refs and too many search filters', async () => {
      await withEmulator({}, async (e) => {
        const long = await post(
          `${e.info.baseUrl}/oauth-connect`,
          connectBody({ groupRef: 'g'.repeat(LIMITS.refLength + 1) }),
        );
        assert.equal(long.status, 400);
        assert.equal((await long.json()).issues[0].name, 'groupRef');
        const filters = Array.from({ length: LIMITS.searchFilters + 1 }, () => ({
          fieldName: 'id',
          operator: 'eq',
          value: '1',
        }));
        const search = await post(`${e.info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`, {
          objectName: 'contact',
          fieldFilters: filters,
        });
        assert.equal(search.status, 400);
      });
    });

    it('answers 400, not 500, to a search for an object named like a prototype member', async () => {
      await withEmulator({}, async (e) => {
        for (const objectName of ['constructor', '__proto__', 'toString']) {
          const response = await post(`${e.info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`, {
            objectName,
            fieldFilters: [],
          });
          assert.equal(response.status, 400, objectName);
        }
      });
    });
  });

  describe('body limits, enforced while reading', () => {
    it('answers 413 to an endless consent form before it ends', async () => {
      await withEmulator({}, async (e) => {
        const url = await (await post(`${e.info.baseUrl}/oauth-connect`, connectBody())).json();
        const { status, sent } = await streamUntilAnswered(
          url,
          'POST',
          { 'content-type': 'application/x-www-form-urlencoded' },
          64 * 1024 * 1024,
        );
        assert.equal(status, 413);
        assert.ok(sent < 64 * 1024 * 1024, `the answer came after ${sent} bytes, before the body ended`);
        assert.equal((await allow(url)).status, 303, 'the session is untouched');
      });
    });

    it('answers 413 to an endless JSON body before it ends', async () => {
      await withEmulator({}, async (e) => {
        const { status, sent } = await streamUntilAnswered(
          `${e.info.baseUrl}/oauth-connect`,
          'POST',
          { ...KEY, 'content-type': 'application/json' },
          64 * 1024 * 1024,
        );
        assert.equal(status, 413);
        assert.ok(sent < 64 * 1024 * 1024);
      });
    });
  });

  describe('consent sessions', () => {
    it("caps pending links per group: one group cannot evict another group's", async () => {
      await withEmulator({}, async (e) => {
        const connect = async (groupRef: string) =>
          (await post(`${e.info.baseUrl}/oauth-connect`, connectBody({ groupRef }))).json();
        const victim = await connect('victim');
        const first = await connect('flooder');
        let last = first;
        for (let i = 0; i < LIMITS.consentsPerGroup + 10; i++) last = await connect('flooder');
        assert.equal((await fetch(victim)).status, 200, "the other group's link still works");
        assert.equal((await fetch(first)).status, 404, "the flooding group's oldest link was forgotten");
        assert.equal((await fetch(last)).status, 200);
        assert.ok(e.emulator.state.consents.length <= LIMITS.consentsPerGroup + 1);
      });
    });
  });

  describe('state size', () => {
    it('answers 429 to oauth-connect once the pending links of all groups reach the limit, with a retry time', async () => {
      await withEmulator({}, async (e) => {
        const template = {
          mode: 'create' as const,
          projectId: 'proj_demo',
          provider: 'slack',
          consumerRef: 'c',
          consumerName: 'c',
          groupName: 'g',
        };
        const createTime = new Date().toISOString();
        const expiresAt = new Date(Date.now() + 60_000).toISOString();
        for (let i = 0; i < LIMITS.consents; i++)
          e.emulator.state.consents.push({
            ...template,
            id: `consent_fill_${i}`,
            groupRef: `fill-${i}`,
            createTime,
            expiresAt,
          });
        const response = await post(`${e.info.baseUrl}/oauth-connect`, connectBody({ groupRef: 'one-more' }));
        assert.equal(response.status, 429);
        const problem = await response.json();
        assert.equal(problem.retryAfter, expiresAt);
        assert.ok(Number(response.headers.get('retry-after')) > 0);
      });
    });

    it('answers 429 to a consent that would create a connection past the limit, and leaves the link usable', async () => {
      await withEmulator({}, async (e) => {
        const url = await (await post(`${e.info.baseUrl}/oauth-connect`, connectBody({ groupRef: 'late' }))).json();
        const seed = e.emulator.state.connections[0];
        while (e.emulator.state.connections.length < LIMITS.connections) {
          e.emulator.state.connections.push({ ...seed, id: `conn_fill_${e.emulator.state.connections.length}` });
        }
        assert.equal((await allow(url)).status, 429);
        e.emulator.state.connections.pop();
        assert.equal((await allow(url)).status, 303, 'the refused consent was not recorded as decided');
      });
    });
  });

  describe('malformed paths', () => {
    it('answers 4xx problems, not 500, to malformed percent-encoding', async () => {
      await withEmulator({}, async (e) => {
        for (const path of [
          '/consent/%E0%A4%A',
          '/v1/projects/%E0%A4%A/connections/x',
          '/oauth/callback?session=%E0%A4%A',
          '/search/v1/projects/%FF/integrations/x',
        ]) {
          const response = await fetch(`${e.info.url}${path}`, { headers: KEY });
          assert.ok(response.status >= 400 && response.status < 500, `${path}: ${response.status}`);
          assert.equal(response.headers.get('content-type'), 'application/problem+json', path);
        }
      });
    });
  });

  describe('a Request-like object that is no Request', () => {
    it('gets a 400 problem from handle(), not a rejected promise', async () => {
      const emulator = createEmulator();
      const response = await emulator.handle({
        url: '/v1/projects/demo',
        method: 'GET',
        headers: new Headers({ accept: 'text/html' }),
      } as unknown as Request);
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      const body = await response.json();
      assert.equal(body.detail, 'the request URL is not an absolute URL');
      assert.equal(body.instance, undefined);
      await emulator.close();
    });
  });

  describe('the URLs it hands out', () => {
    it('come from the listening address, never from the Host header', async () => {
      await withEmulator({}, async (e) => {
        const evil = 'evil.example:666';
        const connect = await withHost(`${e.info.baseUrl}/oauth-connect`, evil, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify(connectBody()),
        });
        assert.ok(JSON.parse(connect.body).startsWith(`${e.info.url}/consent/`), connect.body);
        const problem = await withHost(`${e.info.baseUrl}/projects/nope`, evil, { headers: KEY });
        assert.equal(JSON.parse(problem.body).instance, `${e.info.baseUrl}/projects/nope`);
        const created = await withHost(`${e.info.baseUrl}/projects`, evil, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ appName: 'H', name: 'host-test', orgId: 'org_demo' }),
        });
        assert.equal(created.status, 201);
        assert.match(String(created.headers.location), new RegExp(`^${e.info.baseUrl}/projects/proj_`));
      });
    });

    it('come from the address a connection reached when listening on every address', async () => {
      const emulator = createEmulator();
      const info = await emulator.listen(0, '0.0.0.0');
      try {
        const origin = `http://127.0.0.1:${new URL(info.url).port}`;
        const connect = await withHost(`${origin}/v1/oauth-connect`, 'evil.example', {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify(connectBody()),
        });
        assert.ok(JSON.parse(connect.body).startsWith(`${origin}/consent/`), connect.body);
      } finally {
        await emulator.close();
      }
    });

    it('come from --public-url when given', async () => {
      await withEmulator({ publicUrl: 'https://platform.test:8443/' }, async (e) => {
        const url = await (await post(`${e.info.baseUrl}/oauth-connect`, connectBody())).json();
        assert.match(url, /^https:\/\/platform\.test:8443\/consent\//);
        const problem = await (await fetch(`${e.info.baseUrl}/projects/nope`, { headers: KEY })).json();
        assert.equal(problem.instance, 'https://platform.test:8443/v1/projects/nope');
      });
    });

    it('come from the address the host server accepted the connection on, when mounted in one', async () => {
      const emulator = createEmulator();
      const server = createServer(emulator.listener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const connect = await withHost(`${origin}/v1/oauth-connect`, 'evil.example', {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify(connectBody()),
        });
        assert.ok(JSON.parse(connect.body).startsWith(`${origin}/consent/`), connect.body);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('Bearer tokens', () => {
    it('are not signed with anything derived from the API key', async () => {
      await withEmulator({}, async (e) => {
        const derived = createHash('sha256').update('connect-provider-emulator:dev-api-key').digest('hex');
        const iat = Math.floor(Date.now() / 1000);
        const minted = signJwt({ sub: 'evil', org: 'org_demo', iat, exp: iat + 3600 }, derived);
        const response = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
          headers: { authorization: `Bearer ${minted}` },
        });
        assert.equal(response.status, 401);
        const own = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
          headers: { authorization: `Bearer ${e.emulator.bearerToken}` },
        });
        assert.equal(own.status, 200);
      });
    });

    it('use a random secret kept in the data file, so tokens survive a restart and differ between files', async () => {
      const file = join(dir, 'secret.json');
      let token: string;
      {
        await withEmulator({ dataFile: file }, async (e) => {
          token = e.emulator.bearerToken;
        });
      }
      const secret = JSON.parse(readFileSync(file, 'utf8')).tokenSecret;
      assert.ok(typeof secret === 'string' && secret.length >= 32);
      {
        await withEmulator({ dataFile: file }, async (e) => {
          const response = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
            headers: { authorization: `Bearer ${token}` },
          });
          assert.equal(response.status, 200, 'the token issued before the restart is still valid');
        });
      }
      {
        await withEmulator({ dataFile: join(dir, 'secret-2.json') }, async (e) => {
          const response = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
            headers: { authorization: `Bearer ${token}` },
          });
          assert.equal(response.status, 401, "another data file's emulator refuses it");
        });
      }
      {
        const a = createEmulator({ jwtSecret: 'a-secret-given-by-flag' });
        await withEmulator({ jwtSecret: 'a-secret-given-by-flag' }, async (e) => {
          const response = await fetch(`${e.info.baseUrl}/orgs/org_demo/invites`, {
            headers: { authorization: `Bearer ${a.bearerToken}` },
          });
          assert.equal(response.status, 200, 'a secret given as an option signs and checks');
        });
      }
    });
  });

  describe('the data file', () => {
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

    it('removes the temporary files of a writer killed mid-write when it starts, and nothing else', async () => {
      const sub = mkdtempSync(join(dir, 'stray-'));
      const file = join(sub, 'state.json');
      writeFileSync(join(sub, 'state.json.4242.0badc0de.tmp'), '{"version": 1, "orgs": [');
      writeFileSync(join(sub, 'notes.txt'), 'mine');
      await withEmulator({ dataFile: file }, async (_e) => {
        assert.deepEqual(readdirSync(sub).sort(), ['notes.txt', 'state.json']);
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
          const decided = await allow(url);
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
});

describe('emulator structure', () => {
  it('never imports from src/server, directly or through another module', () => {
    const root = new URL('../../src/', import.meta.url);
    const seen = new Set<string>();
    const queue = ['emulator/index.ts', 'emulator/cli.ts'];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      assert.ok(!file.startsWith('server/'), `the emulator reaches src/${file}`);
      const text = readFileSync(new URL(file, root), 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const resolved = new URL(spec.replace(/\.js$/, '.ts'), new URL(file, root)).pathname.slice(
          root.pathname.length,
        );
        queue.push(resolved);
      }
    }
    assert.ok(seen.has('http/problem.ts') && seen.has('emulator/operations.ts'), 'the walk follows imports');
  });
});
