// The data file's limit is counted in the bytes it stores (JSON as the file indents it, UTF-8, escapes included):
// connections made of the costliest characters (control characters, six bytes each in the file) at every
// character limit are refused with a 429 before the file could grow past LIMITS.dataFileBytes; deleting some makes
// room again; a request refused for another reason takes no room; a change's room is counted until the write
// measures it, so two at once, or one during the write before it, cannot share it; every operation that stores takes
// room, and no read; Allow on a consent page takes room for the connection it makes; and expired consent links are
// forgotten when the file is full, so a retry fits (only then is the 429 one to retry).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { LIMITS, storedBytesBound } from '../../../src/emulator/limits.js';
import { costly, costlyConnection, costlyConsent } from '../helpers/costly.js';
import { manualClock } from '../helpers/emulator.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-data-bytes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the data file never grows past LIMITS.dataFileBytes, counted in the bytes it stores', () => {
  /** Calls the emulator's API (or a consent page: `path` from the origin) with the seed's key. */
  const call = (emulator: Emulator, method: string, path: string, body?: unknown) =>
    emulator.handle(
      new Request(`http://127.0.0.1${path}`, {
        method,
        headers: { 'x-api-key': 'dev-api-key', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );

  it('refuses with 429 a connection that might take the file past its most, whatever its characters; a delete makes room', async (t) => {
    const file = join(dir, 'full.json');
    const emulator = createEmulator({ dataFile: file, verifyDelay: 0 });
    const generate = (project: string, i: number) =>
      call(emulator, 'POST', `/v1/projects/${project}/connections:generate`, costlyConnection(i));
    try {
      const made: string[] = [];
      let refused: { status: number; detail: string; retryable?: boolean } | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const response = await generate('demo', i);
        assert.ok(statSync(file).size <= LIMITS.dataFileBytes, `${statSync(file).size} bytes after ${i + 1}`);
        if (response.status === 429) {
          refused = await response.json();
          // Nothing will free room but the caller's deletes: not a 429 to retry.
          assert.equal(response.headers.get('retry-after'), null);
        } else {
          assert.equal(response.status, 201, await response.clone().text());
          made.push(((await response.json()) as { id: string }).id);
        }
      }
      assert.ok(refused, 'refused before 200 connections of 180 KB each');
      t.diagnostic(`${made.length} connections, ${statSync(file).size} bytes, then a 429`);
      assert.match(
        refused.detail,
        /^the data file holds \d+ bytes, and this change might take it past its most \(8388608 bytes\); delete some connections first$/,
      );
      assert.equal(refused.retryable, undefined);
      // Each costly connection is over 150 KB in the file: at most ~55 fit in 8 MiB, and far more than a few.
      assert.ok(made.length >= 20 && made.length <= 60, `${made.length} connections`);

      // Deletes until there is room for `bytes` more (each delete freeing less than one connection takes).
      const room = () => LIMITS.dataFileBytes - statSync(file).size;
      let deletes = 0;
      const makeRoom = async (bytes: number) => {
        while (room() < bytes) {
          const deleted = await call(emulator, 'DELETE', `/v1/projects/demo/connections/${made[deletes++]}`);
          assert.equal(deleted.status, 204);
        }
      };
      const one = Math.max(...[2000, 2001, 3000, 3001].map((i) => storedBytesBound(costlyConnection(i))));
      await makeRoom(one);
      assert.ok(room() < 2 * one, `${room()} bytes of room, ${one} for one connection`);
      // Refused for another reason (no such project), a request takes no room: never a 429 however many.
      for (let i = 0; i < 30; i++) assert.equal((await generate('no-such-project', 1000 + i)).status, 404);
      // Two at once: the first's room is counted until its write measures the file, so the second cannot take it too.
      const both = await Promise.all([generate('demo', 2000), generate('demo', 2001)]);
      assert.deepEqual(both.map((r) => r.status).sort(), [201, 429], 'room again after the deletes, for one');
      assert.ok(statSync(file).size <= LIMITS.dataFileBytes);

      // A change made while the write before it is under way keeps its room until its own write, though it is made
      // and done: one arriving after it, during that write, cannot take the room too.
      await makeRoom(one + 8192);
      assert.ok(room() < 2 * one, `${room()} bytes of room, ${one} for one connection`);
      let writing = true;
      const project = call(emulator, 'POST', '/v1/projects', {
        name: 'during-a-write',
        appName: 'W',
        orgId: 'org_demo',
      }).finally(() => (writing = false));
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      // The project is made and its write begins at the loop's next turn.
      await turn();
      await turn();
      const first = generate('demo', 3000);
      const madeFirst = () => emulator.state.connections.some((c) => c.group.groupRef.startsWith('g3000-'));
      for (let i = 0; i < 10_000 && !madeFirst(); i++) await turn();
      const during = writing;
      const second = await generate('demo', 3001);
      assert.deepEqual([(await project).status, (await first).status, second.status], [201, 201, 429]);
      t.diagnostic(`the second came ${during ? 'during' : 'after'} the write before the first`);
      assert.ok(statSync(file).size <= LIMITS.dataFileBytes);
    } finally {
      await emulator.close();
    }
  });

  /** Makes things with `make(i)` until a 429: how many it made (each a 200 or 201). */
  async function fill(make: (i: number) => Promise<Response>): Promise<number> {
    for (let i = 0; i < 10_000; i++) {
      const response = await make(i);
      if (response.status === 429) return i;
      assert.ok(response.status === 200 || response.status === 201, `${response.status} ${await response.text()}`);
    }
    throw new Error('never full');
  }

  const consentLink = async (emulator: Emulator, i: number) => {
    const response = await call(emulator, 'POST', '/v1/oauth-connect', costlyConsent(i));
    assert.equal(response.status, 200);
    return new URL((await response.json()) as string).pathname;
  };

  describe('a full data file', () => {
    const file = join(dir, 'allow.json');
    let emulator: Emulator;
    let link: string;
    let declined: string;
    before(async () => {
      emulator = createEmulator({ dataFile: file, verifyDelay: 0 });
      link = await consentLink(emulator, 0);
      declined = await consentLink(emulator, 1);
      // Full to within the room of the smallest body that stores (room is taken for the body, and 4 KiB more): the
      // largest bodies first, then smaller ones, each fill ending within the room of its body. Every change writes the
      // whole file (8 MiB): after the connections (180 KB each), consent links (40 KB) leave the 1 KB projects about
      // 75 writes to make instead of 380 (this set-up took 30 s, now 8 s).
      await fill((i) => call(emulator, 'POST', '/v1/projects/demo/connections:generate', costlyConnection(i)));
      await fill((i) => call(emulator, 'POST', '/v1/oauth-connect', costlyConsent(2 + i)));
      await fill((i) =>
        call(emulator, 'POST', '/v1/projects', {
          name: `p${i}-${'x'.repeat(100)}`,
          appName: costly(128),
          orgId: 'org_demo',
        }),
      );
      await fill((i) => call(emulator, 'POST', '/v1/projects', { name: `q${i}`, appName: 'Q', orgId: 'org_demo' }));
    });
    after(() => emulator.close());

    it('takes room for every operation that stores, and none for a read', async () => {
      // oauth-update has no body: the least room a change takes. Of two, the second is refused at the latest.
      const update = () => call(emulator, 'PATCH', '/v1/projects/demo/connections/conn_demo:oauth-update');
      const updates = [(await update()).status, (await update()).status];
      assert.ok(updates.includes(429), `oauth-update answered ${updates}`);
      const stored = statSync(file).size;
      const refusedWith = async (response: Response) => {
        assert.equal(response.status, 429, await response.clone().text());
        return ((await response.json()) as { detail: string }).detail;
      };
      const full = /delete some connections first$/;
      assert.match(
        await refusedWith(
          await call(emulator, 'PATCH', '/v1/projects/demo/connections/conn_demo', {
            updateMask: ['providerWorkspaceRef'],
            connection: { providerWorkspaceRef: 'acme-hub-2' },
          }),
        ),
        full,
      );
      assert.match(
        await refusedWith(
          await call(emulator, 'POST', '/v1/projects/demo/notification-event-topic-routes', {
            eventType: 'installation.created',
            topicId: 'topic_alerts',
          }),
        ),
        full,
      );
      assert.equal(statSync(file).size, stored, 'nothing refused was stored');
      // What only reads answers as on any day (a read may store less: it settles the verified connections' status).
      const reads: Array<[string, string, unknown?]> = [
        ['GET', '/v1/projects/demo/connections'],
        ['GET', '/v1/projects/demo/connections/conn_demo'],
        ['GET', '/v1/providers/slack'],
        ['GET', '/v1/projects/demo/notification-event-topic-routes'],
        [
          'POST',
          '/search/v1/projects/demo/integrations/int_demo?groupRef=acme',
          { objectName: 'contact', fieldFilters: [] },
        ],
      ];
      for (const [method, path, body] of reads) {
        const response = await call(emulator, method, path, body);
        assert.equal(response.status, 200, `${method} ${path}: ${await response.text()}`);
      }
      assert.ok(statSync(file).size <= stored);
    });

    it('takes room for the connection an Allow on a consent page makes: a 429 when full, the link still pending; a Deny takes none', async () => {
      const decide = (on: string, decision: string) =>
        emulator.handle(
          new Request(`http://127.0.0.1${on}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
            body: `decision=${decision}`,
          }),
        );
      const allow = () => decide(link, 'allow');
      // Saying no stores nothing new: a full file never keeps a user from it.
      const deny = await decide(declined, 'deny');
      assert.equal(deny.status, 303, await deny.clone().text());
      const refused = await allow();
      assert.equal(refused.status, 429, await refused.clone().text());
      assert.match(((await refused.json()) as { detail: string }).detail, /delete some connections first$/);
      const session = emulator.state.consents.find((s) => link.endsWith(s.id));
      assert.equal(session?.decision, undefined, 'the link is still pending');
      assert.ok(statSync(file).size <= LIMITS.dataFileBytes);
      for (const c of emulator.state.connections.filter((c) => c.provider === 'paypal').slice(0, 4)) {
        assert.equal((await call(emulator, 'DELETE', `/v1/projects/demo/connections/${c.id}`)).status, 204);
      }
      assert.equal((await allow()).status, 303, 'room again after the deletes');
    });
  });

  it('forgets expired consent links when full (a 429 to retry after a second), so the retry fits', async () => {
    const file = join(dir, 'expired.json');
    const clock = manualClock();
    const emulator = createEmulator({ dataFile: file, verifyDelay: 0, now: clock.now });
    try {
      const made = await fill((i) => call(emulator, 'POST', '/v1/oauth-connect', costlyConsent(i)));
      assert.ok(made >= 20, `${made} consent links`);
      assert.ok(statSync(file).size <= LIMITS.dataFileBytes);
      clock.advance(11 * 60 * 1000);
      const refused = await call(emulator, 'POST', '/v1/oauth-connect', costlyConsent(made));
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal(((await refused.json()) as { retryable?: boolean }).retryable, true);
      assert.equal(emulator.state.consents.length, 0, 'the expired links are forgotten');
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { consents: unknown[] };
      assert.equal(saved.consents.length, 0, 'and the data file says so before the 429 is answered');
      await consentLink(emulator, made + 1);
    } finally {
      await emulator.close();
    }
  });
});
