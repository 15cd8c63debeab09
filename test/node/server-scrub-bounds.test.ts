// What the platform may send is read and scrubbed within bounds: an error body is read up to 64 KB, the scrubber looks
// at a bounded prefix of any text (the key hidden first, whole, even across the cut), and never lets the key through,
// whatever 1 MB adversarial text surrounds it. (How long a call takes is measured by scripts/bench-scrub.ts.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_ERROR_BODY_BYTES, problemFromResponse } from '../../src/api/errors.js';
import { createScrubber, SCRUB_LIMITS } from '../../src/server/scrub.js';

// Its base64 holds '+' and '/', its URL encoding '%3E' and '%3F'.
const KEY = 'k>>>???live-key-0123456789';
const BASE = 'http://127.0.0.1:4010/v1';
const scrub = createScrubber(KEY, BASE);

/** The key in every form the scrubber promises to hide. */
const KEY_FORMS = [KEY, KEY.toUpperCase(), encodeURIComponent(KEY), Buffer.from(KEY).toString('hex')];
/** Texts repeated to 1 MB that made the old patterns backtrack, or that look like parts of what is hidden. */
const UNITS = [
  '/a',
  'a.',
  '<',
  '<a',
  ':1',
  '/:1',
  'at ',
  'at a ',
  ' ',
  'a',
  '(',
  'file:',
  'http:/',
  'a://',
  '%3a4010',
  '127.0.0.1',
  KEY.slice(0, 11),
  KEY.slice(0, 13),
  '=',
  '\u0000',
];
const MB = 1024 * 1024;

/** A 1 MB text built from a few repeated units, with the key (in some form) at `at`. */
const adversarial = fc
  .record({
    units: fc.array(fc.constantFrom(...UNITS), { minLength: 1, maxLength: 3 }),
    form: fc.constantFrom(...KEY_FORMS),
    at: fc.oneof(
      fc.integer({ min: 0, max: 3 * SCRUB_LIMITS.scanText }),
      // Across the cuts, where a key split in two would be missed.
      fc.integer({ min: -40, max: 40 }).map((d) => SCRUB_LIMITS.scanText + d),
      fc.integer({ min: -40, max: 40 }).map((d) => SCRUB_LIMITS.keepText + d),
      fc.constant(MB - 100),
    ),
  })
  .map(({ units, form, at }) => {
    const filler = units
      .join('')
      .repeat(Math.ceil(MB / units.join('').length))
      .slice(0, MB);
    const cut = Math.max(0, Math.min(at, filler.length));
    return { text: filler.slice(0, cut) + form + filler.slice(cut), form };
  });

function holdsKey(text: string): boolean {
  const lower = text.toLowerCase();
  return KEY_FORMS.some((form) => lower.includes(form.toLowerCase())) || lower.includes(KEY.slice(-12).toLowerCase());
}

describe('the scrubber under 1 MB adversarial text', () => {
  it('never lets the key through, and answers at most 500 characters', () => {
    fc.assert(
      fc.property(adversarial, ({ text }) => {
        const out = scrub(text);
        assert.ok(!holdsKey(out), out.slice(0, 200));
        assert.ok(out.length <= 500);
        assert.ok(!out.includes('127.0.0.1'), out.slice(0, 200));
      }),
      { numRuns: 150 },
    );
  });

  it('answers from a bounded prefix: what lies past it changes nothing', () => {
    const prefix = SCRUB_LIMITS.scanText + 1024;
    fc.assert(
      fc.property(adversarial, fc.string({ maxLength: 50 }), ({ text }, tail) => {
        assert.equal(scrub(text + tail), scrub(text.slice(0, prefix)));
      }),
      { numRuns: 60 },
    );
    // Text far past the prefix is not shown, whatever whitespace would have brought it near.
    assert.equal(scrub(`${' '.repeat(SCRUB_LIMITS.scanText + 5000)}late words`), '');
  });

  it('hides a key that starts just before the cut whole, in every form', () => {
    for (const form of KEY_FORMS) {
      for (let d = -form.length; d <= 2; d++) {
        const text = 'x'.repeat(SCRUB_LIMITS.scanText + d) + form + 'y'.repeat(100);
        const out = scrub(text);
        assert.ok(!holdsKey(out), `${form} at ${d}`);
      }
    }
  });
});

describe("problem parsing of the platform's error bodies", () => {
  /** A 1 MB (or endless) body that counts the bytes the reader pulled. */
  function counted(chunk: string, total: number) {
    const bytes = new TextEncoder().encode(chunk);
    const state = { pulled: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.pulled >= total) return controller.close();
        state.pulled += bytes.byteLength;
        controller.enqueue(bytes);
      },
    });
    return { body, state };
  }

  it('reads at most 64 KB of an error body, whatever its size', async () => {
    assert.equal(MAX_ERROR_BODY_BYTES, 64 * 1024);
    for (const contentType of ['text/html', 'application/problem+json', 'text/plain']) {
      const { body, state } = counted('<'.repeat(4096), Number.POSITIVE_INFINITY);
      const error = await problemFromResponse(
        new Response(body, { status: 500, headers: { 'content-type': contentType } }),
      );
      assert.equal(error.status, 500);
      assert.ok(state.pulled <= MAX_ERROR_BODY_BYTES + 2 * 4096, `${contentType}: pulled ${state.pulled}`);
      assert.ok((error.detail ?? '').length <= 500);
    }
  });

  it('keeps a problem that fits, and a text detail of at most 500 characters, for 1 MB adversarial bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        adversarial,
        fc.constantFrom('text/html', 'text/plain', 'application/json'),
        async ({ text }, type) => {
          const error = await problemFromResponse(
            new Response(text, { status: 502, headers: { 'content-type': type } }),
          );
          assert.equal(error.status, 502);
          assert.equal(typeof error.title, 'string');
          assert.ok((error.detail ?? '').length <= 500);
          // Scrubbed as the handler scrubs it, nothing of the key is left.
          assert.ok(!holdsKey(scrub(error.detail ?? '')));
        },
      ),
      { numRuns: 40 },
    );
    const fits = await problemFromResponse(
      new Response(JSON.stringify({ title: 'Nope', detail: 'd', pad: 'x'.repeat(60 * 1024) }), {
        status: 400,
        headers: { 'content-type': 'application/problem+json' },
      }),
    );
    assert.equal(fits.title, 'Nope');
    assert.equal(fits.detail, 'd');
  });

  it('drops tags of any nesting without joining words, in linear time patterns', async () => {
    const page = await problemFromResponse(
      new Response('<<p>Service</p><p>down</p>', { status: 500, headers: { 'content-type': 'text/html' } }),
    );
    assert.equal(page.detail, '< Service down');
  });
});
