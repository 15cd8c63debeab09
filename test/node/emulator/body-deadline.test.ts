// The emulator's body deadline (its bodyDeadline option, 10 s by default, as the connect handler's): a client that
// sends its body too slowly, an operation's JSON or the consent form, is answered 408 once the body has taken that
// long, and holds nothing after. A short deadline keeps these tests short.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createEmulator } from '../../../src/emulator/index.js';
import { LIMITS } from '../../../src/emulator/limits.js';
import { connectBody, emulatorPerSuite, post } from '../helpers/emulator.js';

const DEADLINE_MS = 300;

/** Sends the request head, then its body one byte every `everyMs`; resolves with the raw answer and its time. */
function slowWriter(port: number, head: string, body: string, everyMs: number) {
  return new Promise<{ answer: string; ms: number; sent: number }>((resolve, reject) => {
    const started = performance.now();
    let sent = 0;
    let data = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
      const drip = setInterval(() => {
        if (sent < body.length && !socket.destroyed) socket.write(body[sent++]);
      }, everyMs);
      socket.on('close', () => {
        clearInterval(drip);
        resolve({ answer: data, ms: Math.round(performance.now() - started), sent });
      });
    });
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', () => {});
    setTimeout(() => reject(new Error(`no answer within 10 s: ${data}`)), 10_000).unref();
  });
}

describe('the emulator body deadline', () => {
  const started = emulatorPerSuite({ bodyDeadline: DEADLINE_MS });
  const port = () => Number(new URL(started.info.url).port);

  it('answers 408 to an operation body sent byte by byte past the deadline, and closes the connection', async (t) => {
    const body = JSON.stringify(connectBody());
    const { answer, ms, sent } = await slowWriter(
      port(),
      `POST /v1/oauth-connect HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nX-Api-Key: dev-api-key\r\nContent-Type: application/json\r\n`,
      body,
      50,
    );
    t.diagnostic(`408 after ${ms} ms, ${sent} of ${body.length} bytes sent`);
    assert.match(answer, /^HTTP\/1\.1 408 /, answer);
    assert.match(answer, /content-type: application\/problem\+json/i);
    assert.match(answer, /connection: close/i);
    assert.match(answer, /"status":408/);
    assert.ok(ms >= DEADLINE_MS - 20 && ms < DEADLINE_MS + 1000, `answered after ${ms} ms`);
    assert.ok(sent < body.length);
  });

  it('answers 408 to a consent form sent byte by byte past the deadline, and the consent stays undecided', async () => {
    const link = await (await post(`${started.info.baseUrl}/oauth-connect`, connectBody())).json();
    const path = new URL(link).pathname;
    const { answer } = await slowWriter(
      port(),
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nContent-Type: application/x-www-form-urlencoded\r\n`,
      'decision=allow&pad=xxxxxxxxxxxxxxxxxxxxxxxx',
      50,
    );
    assert.match(answer, /^HTTP\/1\.1 408 /, answer);
    const page = await fetch(`${started.info.url}${path}`, { redirect: 'manual' });
    assert.equal(page.status, 200, 'the consent was decided by a body that never arrived whole');
  });

  it('serves a body sent in a few slow pieces within the deadline', async () => {
    const body = JSON.stringify(connectBody());
    const { answer } = await slowWriter(
      port(),
      `POST /v1/oauth-connect HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nX-Api-Key: dev-api-key\r\nContent-Type: application/json\r\nConnection: close\r\n`,
      body,
      1,
    );
    assert.match(answer, /^HTTP\/1\.1 200 /, answer);
  });

  it('waits 10 s by default, as the connect handler does, and refuses a deadline that is no positive number', () => {
    assert.equal(LIMITS.bodyDeadlineMs, 10_000);
    for (const bodyDeadline of [0, -1, Number.NaN, Infinity]) {
      assert.throws(() => createEmulator({ bodyDeadline }), /bodyDeadline must be a number of milliseconds > 0/);
    }
  });
});
