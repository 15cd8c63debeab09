// What the browser may see of the platform's text (src/server/scrub.ts): the API key in every form, the platform's
// address, stack traces and URLs removed, within bounds whatever 1 MB text surrounds them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type ConnectHandler } from '../../../src/server/index.js';
import { createScrubber, SCRUB_LIMITS } from '../../../src/server/scrub.js';
import { MAX_ERROR_BODY_BYTES, problemFromResponse } from '../../../src/api/errors.js';
import { call, problemReply } from '../helpers/handler-calls.js';
import { handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

// Its base64 holds both '+' and '/', so the standard and URL-safe forms differ.
const KEY = 'k>>>???live-key-0123456789';
const scrub = createScrubber(KEY, 'https://platform.example/v1');

const BASE = 'http://127.0.0.1:4010/v1';
const scrubLoopback = createScrubber(KEY, BASE);

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

  it('keeps the padding of its whole base64, one or two characters', () => {
    const twoPads = `${KEY}ab`;
    const whole = Buffer.from(twoPads).toString('base64');
    assert.match(whole, /[^=]==$/);
    assert.equal(createScrubber(twoPads, 'https://platform.example/v1')(whole), '[redacted]==');
  });

  it('hides a base64 form of 6 characters inside a longer encoding, and none of 5', () => {
    // A 5-character key at the second byte of an encoding: its 6 characters there depend on the key's bytes only.
    const five = createScrubber('k9Zq!', 'http://p.example/v1');
    const encoded = Buffer.from('xk9Zq!yy').toString('base64');
    assert.match(five(`token ${encoded} end`), /^token \S{1,2}\[redacted\]\S{2,4} end$/);
    // A 4-character key at the third byte: 5 such characters, too few to hide without hiding other text.
    const four = createScrubber('k9Zq', 'http://p.example/v1');
    const short = Buffer.from('xyk9Zqyy').toString('base64');
    assert.equal(four(`token ${short} end`), `token ${short} end`);
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

  it('hides an IPv6 host written without "::", or ending in it, in its expanded form', () => {
    const full = createScrubber(KEY, 'http://[2001:db8:1:2:3:4:5:6]:8443/v1');
    assert.equal(full('at 2001:0db8:0001:0002:0003:0004:0005:0006 x'), 'at [redacted] x');
    const trailing = createScrubber(KEY, 'http://[2001:db8::]:8443/v1');
    assert.equal(trailing('at 2001:0db8:0000:0000:0000:0000:0000:0000 x'), 'at [redacted] x');
  });

  it('keeps the brackets around a named host: only an IPv6 address has them as part of it', () => {
    assert.equal(scrub('host [platform.example] end'), 'host [[redacted]] end');
  });

  it('hides the longest form that starts at a place: a key that begins the host name hides the whole host', () => {
    const overlapping = createScrubber('platform', 'https://platform.example/v1');
    assert.equal(overlapping('at platform.example now'), 'at [redacted] now');
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

  it('removes frames whatever the spaces between their parts, and a position that ends the text', () => {
    const stack = [
      'boom',
      '    at new  Other (/app/o.js:5:6)',
      '    at fn  (/app/x.js:1:2)',
      '    at  Array.map (native)',
      '    at Array.map  (native)',
      '    at async  Promise.all (index 10)',
      '    at new  Thing (<anonymous>)',
      '    at last /app/end.js:12',
    ].join('\n');
    assert.equal(scrub(stack), 'boom');
  });

  it('keeps the words after a file position that a colon follows', () => {
    assert.match(scrub('/app/config.json:3: unexpected token }'), /: unexpected token \}$/);
  });

  it("replaces a URL whole, its port too, and never takes a URL's port for a line number", () => {
    assert.equal(scrub('connect http://127.0.0.1:4010 refused'), 'connect [url] refused');
    assert.equal(scrub('see https://other.example:4010/v1/x for more'), 'see [url] for more');
  });
});

describe("what the browser sees of the platform's text (the scrubber)", () => {
  const { platform, make } = handlerOnPlatformDouble();
  const KEY = 'sk+Live/Key=9Zq~Abc.Def';
  /** The detail the browser gets when the platform refuses a request with `text` as its detail. */
  async function seen(handler: ConnectHandler, text: string): Promise<string> {
    platform.reply = () => problemReply(400, { detail: text });
    return (await problemOf(await call(handler, '/connections/c1'), 400)).detail;
  }
  /** A handler whose platform has another address, reached through a fetch that maps it to the double. */
  const behind = (baseUrl: string) =>
    make({
      apiKey: KEY,
      baseUrl,
      fetch: (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        return fetch(url.replace(new URL(baseUrl).origin, platform.url), init);
      },
    });

  it(
    'hides the key in any case, URL-encoded, in hex, and any run of 12 of its characters, but not a run of 11',
    { timeout: 10_000 },
    async () => {
      const handler = make({ apiKey: KEY });
      assert.equal(
        await seen(handler, `a ${KEY.toUpperCase()} b ${KEY.toLowerCase()} c`),
        'a [redacted] b [redacted] c',
      );
      assert.equal(await seen(handler, `q=${encodeURIComponent(KEY)}&r=1`), 'q=[redacted]&r=1');
      const hex = Buffer.from(KEY).toString('hex');
      assert.equal(await seen(handler, `hex ${hex} HEX ${hex.toUpperCase()}.`), 'hex [redacted] HEX [redacted].');
      assert.equal(await seen(handler, `part x${KEY.slice(5, 17)}y`), 'part x[redacted]y');
      assert.equal(
        await seen(handler, `short ${KEY.slice(0, 11)} and ${KEY.slice(12)}`),
        `short ${KEY.slice(0, 11)} and ${KEY.slice(12)}`,
      );
    },
  );

  it('hides the key base64-encoded, standard and URL-safe, at each byte alignment', { timeout: 10_000 }, async () => {
    const handler = make({ apiKey: KEY });
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${prefix}${KEY}!`).toString(encoding);
        const detail = await seen(handler, `token ${encoded} end`);
        assert.match(detail, /^token \S*\[redacted\]\S* end$/, `${prefix} ${encoding}: ${detail}`);
        assert.ok(detail.length < encoded.length, `${prefix} ${encoding}: ${detail}`);
      }
    }
    // Base64 is case-sensitive: the same letters in another case are not the key.
    const other = Buffer.from(KEY).toString('base64').replace(/=+$/, '').toLowerCase();
    assert.equal(await seen(handler, other), other);
  });

  it(
    "hides the platform's host and port in any form, an explicit port also as a bare number",
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const { hostname, port, host } = new URL(platform.url);
      assert.equal(
        await seen(handler, `host ${hostname} and ${host} then`),
        'host [redacted] and [redacted] [redacted] then',
      );
      assert.equal(
        await seen(handler, `port ${port}, ${port}5, 1${port} and .${port}`),
        `port [redacted], ${port}5, 1${port} and .${port}`,
      );
      assert.equal(await seen(handler, `encoded ${encodeURIComponent(`x:${port}`)}`), 'encoded x [redacted]');
      assert.equal(
        await seen(handler, `see ${platform.url}/v1/x?key=1 or ftp://files.example/a, then`),
        'see [url] or [url] then',
      );
    },
  );

  it(
    'hides an IPv6 platform in its compressed, expanded and short forms, with or without brackets',
    { timeout: 10_000 },
    async () => {
      const handler = behind('http://[::1]:4010/v1');
      assert.equal(
        await seen(handler, 'at ::1 or [::1] or 0000:0000:0000:0000:0000:0000:0000:0001 or 0:0:0:0:0:0:0:1 end'),
        'at [redacted] or [redacted] or [redacted] or [redacted] end',
      );
      assert.equal(await seen(handler, 'port 4010 or :4010 or %3A4010'), 'port [redacted] or [redacted] or [redacted]');
    },
  );

  it('hides an implicit port only after a colon', { timeout: 10_000 }, async () => {
    const handler = behind('https://Platform.Example/v1');
    assert.equal(
      await seen(handler, 'PLATFORM.example:443 and 443 apples and platform.example%3a443'),
      '[redacted] [redacted] and 443 apples and [redacted] [redacted]',
    );
  });

  it(
    'removes stack frames and control characters, folds runs of spaces, and cuts at 500 characters',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      assert.equal(
        await seen(
          handler,
          'boom\n    at handler (/srv/app/routes.js:41:13)\n    at async Promise.all (index 0)\n    at node:internal/process/task_queues:95:5 end',
        ),
        'boom end',
      );
      assert.equal(await seen(handler, 'C:\\srv\\app.js:12:5 and at Array.map (native) done'), 'and done');
      assert.equal(await seen(handler, 'a\u0001b\u007fc\u0000d   e\tf'), 'a b c d e\tf');
      const long = await seen(handler, 'w'.repeat(600));
      assert.equal(long, `${'w'.repeat(499)}…`);
      assert.equal(await seen(handler, 'v'.repeat(500)), 'v'.repeat(500));
    },
  );
});

describe('the scrubber under 1 MB adversarial text', () => {
  it('never lets the key through, and answers at most 500 characters', () => {
    fc.assert(
      fc.property(adversarial, ({ text }) => {
        const out = scrubLoopback(text);
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
        assert.equal(scrubLoopback(text + tail), scrubLoopback(text.slice(0, prefix)));
      }),
      { numRuns: 60 },
    );
    // Text far past the prefix is not shown, whatever whitespace would have brought it near.
    assert.equal(scrubLoopback(`${' '.repeat(SCRUB_LIMITS.scanText + 5000)}late words`), '');
    // Nor is text past the first keepText characters: a word that crosses that cut is cut there.
    assert.equal(scrubLoopback(`${' '.repeat(SCRUB_LIMITS.keepText - 5)}words`), 'words');
    assert.equal(scrubLoopback(`${' '.repeat(SCRUB_LIMITS.keepText - 4)}words`), 'word');
  });

  it('hides a key that starts just before the cut whole, in every form', () => {
    for (const form of KEY_FORMS) {
      for (let d = -form.length; d <= 2; d++) {
        const text = 'x'.repeat(SCRUB_LIMITS.scanText + d) + form + 'y'.repeat(100);
        const out = scrubLoopback(text);
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
          assert.ok(!holdsKey(scrubLoopback(error.detail ?? '')));
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
