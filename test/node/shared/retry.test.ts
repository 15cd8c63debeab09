// Retry-After, the backoff between attempts and the abortable wait (src/shared/retry.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { backoffDelay, parseRetryAfter, sleep } from '../../../src/shared/retry.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');

  it('reads delta-seconds, HTTP-dates and RFC 3339 date-times, never negative', () => {
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('2026-11-22T10:00:01.500Z', now), 1500);
    assert.equal(parseRetryAfter('2026-11-22T09:00:00Z', now), 0);
  });

  it('gives undefined for anything else', () => {
    for (const value of [undefined, null, 3, '', '   ', 'soon'])
      assert.equal(parseRetryAfter(value, now), undefined, String(value));
  });

  it("reads whole seconds or a date's shape, and not text Date.parse would read as a date", () => {
    assert.equal(parseRetryAfter(' 5 '), 5000);
    for (const value of ['in 5', 'x5', '5x', '   ']) assert.equal(parseRetryAfter(value), undefined, value);
  });

  it('reads an HTTP-date in each of its forms, after blanks, and not one that follows other text', () => {
    assert.equal(parseRetryAfter(' Sun, 22 Nov 2026 10:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Sun Nov 22 10:00:05 2026 GMT', now), 5000, 'asctime');
    assert.equal(parseRetryAfter('Sunday, 22-Nov-26 10:00:05 GMT', now), 5000, 'RFC 850');
    assert.equal(parseRetryAfter('at: Sun, 22 Nov 2026 10:00:05 GMT', now), undefined);
  });
});

describe('backoffDelay', () => {
  const options = { baseMs: 100, maxMs: 1000 };

  it('doubles from baseMs, with a jitter over the upper half of the window', () => {
    assert.equal(
      backoffDelay(0, options, () => 0),
      50,
    );
    assert.equal(
      backoffDelay(0, options, () => 1),
      100,
    );
    assert.equal(
      backoffDelay(1, options, () => 0),
      100,
    );
    assert.equal(
      backoffDelay(2, options, () => 0.5),
      300,
    );
    assert.equal(
      backoffDelay(-3, options, () => 1),
      100,
    );
  });

  it('never goes over maxMs', () => {
    assert.equal(
      backoffDelay(10, options, () => 1),
      1000,
    );
    assert.equal(
      backoffDelay(10, options, () => 0),
      500,
    );
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    const started = Date.now();
    await sleep(30);
    assert.ok(Date.now() - started >= 25);
  });

  it("rejects with the signal's reason, at once when already aborted", async () => {
    await assert.rejects(sleep(10_000, AbortSignal.abort(new Error('gone'))), /gone/);
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('left'));
    await assert.rejects(pending, /left/);
  });

  it('leaves no listener on the signal once it resolved', async () => {
    const { signal } = new AbortController();
    await sleep(5, signal);
    await sleep(5, signal);
    assert.equal(getEventListeners(signal, 'abort').length, 0);
  });
});
