// The scrubber of every text the browser may see (src/server/scrub.ts), with the exact text it leaves: a
// mutation run (npm run mutate -- server) showed that tests asserting only "the secret is gone" let through a
// scrubber that hid a few characters too few, left a frame's remnants, or missed an encoding.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createScrubber } from '../../src/server/scrub.js';

// Its base64 holds both '+' and '/', so the standard and URL-safe forms differ.
const KEY = 'k>>>???live-key-0123456789';
const scrub = createScrubber(KEY, 'https://platform.example/v1');

describe('createScrubber: the API key', () => {
  it('hides the whole key as one mark, with what is around it kept', () => {
    assert.equal(scrub(`key=${KEY} end`), 'key=[redacted] end');
    assert.equal(scrub(`key=${KEY.toUpperCase()}`), 'key=[redacted]');
  });

  it('hides any run of 12 of its characters, its last 12 included', () => {
    assert.equal(scrub(`head ${KEY.slice(0, 12)} end`), 'head [redacted] end');
    assert.equal(scrub(`tail ${KEY.slice(-12)} end`), 'tail [redacted] end');
    assert.equal(scrub(`short ${KEY.slice(-11)} end`), `short ${KEY.slice(-11)} end`, '11 characters are not the key');
  });

  it('hides its base64, whole and inside a longer encoding, standard and URL-safe', () => {
    const whole = Buffer.from(KEY).toString('base64');
    assert.match(whole, /\+.*\//);
    assert.equal(scrub(whole), '[redacted]=');
    for (const prefix of ['x', 'xx', 'xxx']) {
      const standard = Buffer.from(`${prefix}${KEY}yy`).toString('base64');
      const urlSafe = Buffer.from(`${prefix}${KEY}yy`).toString('base64url');
      for (const encoded of [standard, urlSafe]) {
        const out = scrub(`token ${encoded} end`);
        assert.match(out, /^token \S{0,4}\[redacted\]\S{0,6} end$/, `${prefix}: ${encoded} -> ${out}`);
      }
    }
  });

  it('hides its hex and URL-encoded forms', () => {
    assert.equal(scrub(`hex ${Buffer.from(KEY).toString('hex')} end`), 'hex [redacted] end');
    assert.equal(scrub(`q=${encodeURIComponent(KEY)}&x=1`), 'q=[redacted]&x=1');
  });

  it('works with a key too short for any base64 form, hiding each occurrence', () => {
    const short = createScrubber('k9', 'http://p.example/v1');
    // 'az', 's5' and 'rO' are its base64 at the three alignments: too short to hide without hiding everything.
    assert.equal(short('ak9b K9 az s5 rO'), 'a[redacted]b [redacted] az s5 rO');
  });
});

describe("createScrubber: the platform's address", () => {
  it('hides a default port after its host: 443 for https, 80 for http', () => {
    assert.equal(scrub('dial platform.example:443 failed'), 'dial [redacted] [redacted] failed');
    const http = createScrubber(KEY, 'http://platform.internal/v1');
    assert.equal(http('dial platform.internal:80 failed'), 'dial [redacted] [redacted] failed');
    assert.equal(http('dial platform.internal:443 failed'), 'dial [redacted]:443 failed');
  });

  it('hides an IPv6 host compressed, expanded, without leading zeros, and bracketed', () => {
    const v6 = createScrubber(KEY, 'http://[2001:db8::42]:8443/v1');
    for (const form of [
      '2001:db8::42',
      '2001:0db8:0000:0000:0000:0000:0000:0042',
      '2001:db8:0:0:0:0:0:42',
      '[2001:db8::42]',
    ]) {
      assert.equal(v6(`at ${form} x`), 'at [redacted] x', form);
    }
    assert.equal(v6('at [2001:db8::42]:8443 x'), 'at [redacted] [redacted] x');
    assert.equal(v6('at 2001:db8::43 x'), 'at 2001:db8::43 x', 'another address stays');
    const loopback = createScrubber(KEY, 'http://[::1]:4010/v1');
    assert.equal(
      loopback('at 0:0:0:0:0:0:0:1 and 0000:0000:0000:0000:0000:0000:0000:0001'),
      'at [redacted] and [redacted]',
    );
  });
});

describe('createScrubber: stack traces and URLs', () => {
  it('removes whole frames of every form Node writes, leaving the message', () => {
    const stack = [
      'boom',
      '    at Object.<anonymous> [as run] (/app/x.js:1:2)',
      '    at async Promise.all (index 0)',
      '    at   fn (file:///app/y.mjs:3:4)',
      '    at node:internal/process/task_queues:95:5',
      '    at async   Server.handle [as _h] (C:\\app\\z.js:7:8)',
      '    at new Thing (<anonymous>)',
      '    at new Other (/app/o.js:5:6)',
    ].join('\n');
    assert.equal(scrub(stack), 'boom');
  });

  it('removes a bare file position, keeping the words on either side apart', () => {
    assert.equal(scrub('a(/x.js:1:2)b'), 'a b');
    assert.equal(scrub('failed in /app/x.js:12 while reading'), 'failed in while reading');
  });

  it("replaces a URL whole, its port too, and never takes a URL's port for a line number", () => {
    assert.equal(scrub('connect http://127.0.0.1:4010 refused'), 'connect [url] refused');
    assert.equal(scrub('see https://other.example:4010/v1/x for more'), 'see [url] for more');
  });
});
