// A consent POST whose form body arrives slowly is judged when its body has
// arrived: a consent that expired, or was forgotten for a newer one of its
// group, while the body was on its way gets the answer an expired (410) or
// unknown (404) consent gets, and no connection is made.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CONSENT_LIFETIME_MS } from '../../src/emulator/consent.js';
import { LIMITS } from '../../src/emulator/limits.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

const BASE = 'http://127.0.0.1:4010';

function manualClock(start = Date.parse('2026-06-01T12:00:00Z')) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

async function connect(emulator: Emulator, groupRef: string): Promise<string> {
  const response = await emulator.handle(
    new Request(`${BASE}/v1/oauth-connect`, {
      method: 'POST',
      headers: { 'x-api-key': emulator.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: 'proj_demo', provider: 'slack', groupRef, consumerRef: 'slow-c' }),
    }),
  );
  assert.equal(response.status, 200);
  return new URL((await response.json()) as string).pathname;
}

/** Starts a consent POST whose body waits for `release()` before it arrives. */
function slowPost(emulator: Emulator, path: string, accept = 'application/json') {
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await arrived;
      controller.enqueue(new TextEncoder().encode('decision=allow'));
      controller.close();
    },
  });
  const answer = emulator.handle(
    new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
      body,
      duplex: 'half',
    } as RequestInit),
  );
  return { answer, release };
}

const connectionsOf = (emulator: Emulator, groupRef: string) =>
  emulator.state.connections.filter((c) => c.group.groupRef === groupRef);

describe('emulator: consent rechecked once the form body has arrived', () => {
  it('a consent that expired while its body was arriving is answered as expired, and connects nothing', async () => {
    const clock = manualClock();
    const emulator = createEmulator({ now: clock.now, verifyDelay: 0 });
    const path = await connect(emulator, 'slow-expired');
    const { answer, release } = slowPost(emulator, path);
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock.advance(CONSENT_LIFETIME_MS + 1000);
    release();
    const response = await answer;
    assert.equal(response.status, 410);
    const problem = (await response.json()) as Record<string, unknown>;
    assert.equal(problem.title, 'Authorization expired');
    assert.deepEqual(connectionsOf(emulator, 'slow-expired'), []);
    assert.equal(emulator.state.consents.find((s) => path.endsWith(s.id))?.decision, undefined);
  });

  it('the HTML answer is the expired page', async () => {
    const clock = manualClock();
    const emulator = createEmulator({ now: clock.now, verifyDelay: 0 });
    const path = await connect(emulator, 'slow-expired-html');
    const { answer, release } = slowPost(emulator, path, 'text/html');
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock.advance(CONSENT_LIFETIME_MS + 1000);
    release();
    const response = await answer;
    assert.equal(response.status, 410);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await response.text(), /Authorization expired/);
    assert.deepEqual(connectionsOf(emulator, 'slow-expired-html'), []);
  });

  it('a consent forgotten for newer ones of its group while its body was arriving is unknown, and connects nothing', async () => {
    const emulator = createEmulator({ verifyDelay: 0 });
    const path = await connect(emulator, 'slow-evicted');
    const { answer, release } = slowPost(emulator, path);
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 0; i < LIMITS.consentsPerGroup; i++) await connect(emulator, 'slow-evicted');
    assert.ok(!emulator.state.consents.some((s) => path.endsWith(s.id)), 'the first consent is forgotten');
    release();
    const response = await answer;
    assert.equal(response.status, 404);
    const problem = (await response.json()) as Record<string, unknown>;
    assert.equal(problem.title, 'Unknown authorization');
    assert.deepEqual(connectionsOf(emulator, 'slow-evicted'), []);
  });

  it('a slow body for a consent still live is applied', async () => {
    const emulator = createEmulator({ verifyDelay: 0 });
    const path = await connect(emulator, 'slow-live');
    const { answer, release } = slowPost(emulator, path);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const response = await answer;
    assert.equal(response.status, 303);
    assert.equal(connectionsOf(emulator, 'slow-live').length, 1);
  });
});
