// The handler's options (src/server/options.ts), checked when it is created: the TypeError of each unusable one, what
// each usable one changes, and the start-up warning.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectHandler, type ConnectHandlerOptions } from '../../../src/server/index.js';
import { call, problemReply } from '../helpers/handler-calls.js';
import { handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

const BASE: ConnectHandlerOptions = {
  apiKey: 'edge-key-123',
  baseUrl: 'https://platform.example/v1',
  project: 'demo',
  authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
};

describe('createConnectHandler: the TypeError of each unusable option', () => {
  const refused = (options: unknown, message: string) =>
    assert.throws(
      () => createConnectHandler(options as ConnectHandlerOptions),
      (error: Error) => error instanceof TypeError && error.message === `connect-provider: ${message}`,
      message,
    );

  it('refuses unusable options with a TypeError that names the option', () => {
    const good = { ...BASE, apiKey: 'k' };
    const baseUrl = BASE.baseUrl;
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /needs an options object/],
      [{ ...good, apiKey: undefined }, /apiKey is required/],
      [{ ...good, apiKey: 'key with space' }, /apiKey holds spaces/],
      [{ ...good, project: '' }, /project is required/],
      [{ ...good, project: undefined }, /project is required/],
      [{ ...good, project: 7 }, /project is required/],
      [{ ...good, authorize: 'yes' }, /authorize\(request\) is required/],
      [{ ...good, baseUrl: 'nope' }, /baseUrl must be an absolute URL/],
      [{ ...good, baseUrl: 42 }, /baseUrl must be/],
      [{ ...good, baseUrl: baseUrl.replace(/\/v1$/, '') }, /baseUrl must end in \/v1.*did you mean/],
      [{ ...good, baseUrl: 'ftp://platform.example/v1' }, /http\(s\)/],
      [{ ...good, baseUrl: 'https://user:pw@platform.example/v1' }, /credentials/],
      [{ ...good, providers: 'slack' }, /providers must be an array/],
      [{ ...good, providers: [] }, /empty array/],
      [{ ...good, providers: ['slack', 3] }, /provider names/],
      [{ ...good, allowedOrigins: 'https://spa.example' }, /allowedOrigins must be an array/],
      [
        { ...good, allowedOrigins: ['https://spa.example/'] },
        /allowedOrigins\[0\] must be an origin.*"https:\/\/spa.example"/,
      ],
      [{ ...good, messageOrigin: 'platform.example' }, /messageOrigin/],
      [{ ...good, bodyLimit: -1 }, /bodyLimit/],
      [{ ...good, timeoutMs: '8000' }, /timeoutMs/],
      [{ ...good, retry: 3 }, /retry must be false or an object/],
      [{ ...good, fetch: {} }, /fetch must be a function/],
      [{ ...good, onError: 'console' }, /onError must be a function/],
      [{ ...good, allowedOrigin: ['https://spa.example'] }, /unknown option "allowedOrigin"/],
    ];
    for (const [options, message] of cases) {
      assert.throws(
        () => createConnectHandler(options as never),
        (error: unknown) => {
          assert.ok(error instanceof TypeError, String(error));
          assert.match(error.message, message);
          return true;
        },
      );
    }
  });

  it('describes what it got: null, an array, an object, a long string, another type', () => {
    refused(null, 'createConnectHandler(options) needs an options object, got null');
    refused(['x'], 'createConnectHandler(options) needs an options object, got an array');
    refused('opts', 'createConnectHandler(options) needs an options object, got the string "opts"');
    refused({ ...BASE, authorize: [] }, 'authorize(request) is required: a function, got an array');
    refused({ ...BASE, authorize: {} }, 'authorize(request) is required: a function, got an object');
    refused({ ...BASE, authorize: 7 }, 'authorize(request) is required: a function, got number 7');
    refused(
      { ...BASE, baseUrl: new URL('https://platform.example/v1') },
      "baseUrl must be the platform's URL ending in /v1, got an object",
    );
    const long = 'a'.repeat(41);
    refused(
      { ...BASE, authorize: long },
      `authorize(request) is required: a function, got the string "${'a'.repeat(40)}…"`,
    );
    refused(
      { ...BASE, authorize: 'a'.repeat(40) },
      `authorize(request) is required: a function, got the string "${'a'.repeat(40)}"`,
    );
  });

  it('names every known option next to an unknown one', () => {
    assert.throws(
      () => createConnectHandler({ ...BASE, apikey: 'x' } as unknown as ConnectHandlerOptions),
      /^TypeError: connect-provider: unknown option "apikey" \(known: apiKey, baseUrl, project, authorize, /,
    );
  });

  it('refuses an empty project, a non-http baseUrl, and numbers that are not whole', () => {
    refused({ ...BASE, project: '  ' }, 'project is required: the platform project ID or name');
    refused(
      { ...BASE, baseUrl: 'ftp://platform.example/v1' },
      'baseUrl must be an http(s) URL, got "ftp://platform.example/v1"',
    );
    refused({ ...BASE, timeoutMs: '5000' }, 'timeoutMs must be a whole number from 1 to 600000, got the string "5000"');
  });

  it('suggests the /v1 URL without doubling the slashes it ends in', () => {
    refused(
      { ...BASE, baseUrl: 'https://platform.example/api//' },
      'baseUrl must end in /v1 (the platform API\'s version prefix), got "https://platform.example/api//"; did you mean "https://platform.example/api/v1"?',
    );
  });
});

describe('options', () => {
  const { platform, make, asked } = handlerOnPlatformDouble();
  it('reads bodies up to bodyLimit bytes (16384 by default) and answers 413 past it', { timeout: 10_000 }, async () => {
    const padded = (bytes: number) => {
      const json = '{"provider":"slack"}';
      return json + ' '.repeat(bytes - json.length);
    };
    const byDefault = make();
    assert.equal((await call(byDefault, '/oauth-connect', { method: 'POST', body: padded(16384) })).status, 200);
    const over = await problemOf(await call(byDefault, '/oauth-connect', { method: 'POST', body: padded(16385) }), 413);
    assert.equal(over.detail, 'the body is larger than 16384 bytes');
    const small = make({ bodyLimit: 100 });
    assert.equal((await call(small, '/oauth-connect', { method: 'POST', body: padded(100) })).status, 200);
    await problemOf(await call(small, '/oauth-connect', { method: 'POST', body: padded(101) }), 413);
  });

  it(
    'takes whole numbers from 1 up to the bounds for bodyLimit (1 MiB) and timeoutMs (10 minutes)',
    { timeout: 10_000 },
    () => {
      for (const options of [{ bodyLimit: 1 }, { bodyLimit: 1024 * 1024 }, { timeoutMs: 1 }, { timeoutMs: 600000 }]) {
        assert.equal(typeof make(options), 'function', JSON.stringify(options));
      }
      for (const [options, message] of [
        [{ bodyLimit: 1024 * 1024 + 1 }, /bodyLimit must be a whole number from 1 to 1048576, got number 1048577/],
        [{ bodyLimit: 0 }, /bodyLimit must be a whole number from 1 to 1048576, got number 0/],
        [{ bodyLimit: 1.5 }, /bodyLimit/],
        [{ bodyLimit: Number.NaN }, /bodyLimit/],
        [{ timeoutMs: 600001 }, /timeoutMs must be a whole number from 1 to 600000/],
        [{ timeoutMs: -5 }, /timeoutMs/],
        [{ bodyLimit: null }, /bodyLimit must be a whole number from 1 to 1048576, got null/],
      ] as const) {
        assert.throws(
          () => make(options as never),
          (error: unknown) => error instanceof TypeError && message.test(error.message),
          JSON.stringify(options),
        );
      }
    },
  );

  it(
    'refuses provider names that are blank, and origins that are not exactly scheme, host and port',
    { timeout: 10_000 },
    () => {
      const refused: Array<[Partial<ConnectHandlerOptions>, RegExp]> = [
        [
          { providers: ['slack', '  '] },
          /providers must hold provider names \(non-empty strings\), got the string " {2}"/,
        ],
        [{ allowedOrigins: ['https://spa.example/app'] }, /allowedOrigins\[0\] must be an origin/],
        [{ allowedOrigins: ['https://spa.example', 'ftp://spa.example'] }, /allowedOrigins\[1\] must be an origin/],
        [{ allowedOrigins: ['spa.example'] }, /allowedOrigins\[0\] must be an origin like/],
        [
          { allowedOrigins: [42 as never] },
          /allowedOrigins\[0\] must be an origin string like "https:\/\/app.example", got number 42/,
        ],
        [{ messageOrigin: 'https://consent.example/' }, /messageOrigin must be an origin/],
        [{ project: '   ' }, /project is required/],
        [{ apiKey: '   ' }, /apiKey is required/],
        [{ apiKey: 'key\u00e9' }, /apiKey holds spaces or characters/],
        [{ baseUrl: 'https://platform.example/v1?x=1' }, /must not hold credentials, a query or a fragment/],
        [{ baseUrl: 'https://platform.example/v1#x' }, /must not hold credentials, a query or a fragment/],
        [{ baseUrl: 'https://:pw@platform.example/v1' }, /must not hold credentials/],
        [{ baseUrl: 'https://platform.example/api/v2/' }, /did you mean "https:\/\/platform.example\/api\/v2\/v1"\?/],
        [{ baseUrl: 'https://platform.example/v10' }, /baseUrl must end in \/v1/],
        [{ retry: null as never }, /retry must be false or an object like \{ retries: 2 \}, got null/],
        [{ retry: [] as never }, /retry must be false or an object/],
      ];
      for (const [options, message] of refused) {
        assert.throws(
          () => make(options),
          (error: unknown) => error instanceof TypeError && message.test(error.message),
          JSON.stringify(options),
        );
      }
      for (const options of [
        { allowedOrigins: ['http://localhost:5173', 'https://spa.example'] },
        { messageOrigin: 'https://consent.example' },
        { apiKey: '~!key' },
        { retry: { retries: 0 } },
      ]) {
        assert.equal(typeof make(options), 'function', JSON.stringify(options));
      }
    },
  );

  it(
    'answers with messageOrigin when given, and reaches the platform under a baseUrl that ends in a slash',
    { timeout: 10_000 },
    async () => {
      const handler = make({ messageOrigin: 'https://consent.example', baseUrl: `${platform.url}/v1/` });
      const answer = await (
        await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } })
      ).json();
      assert.deepEqual(answer, { url: 'https://consent.example/start', messageOrigin: 'https://consent.example' });
      assert.equal(asked()[0].path, '/v1/oauth-connect');
    },
  );

  it('retries a failing platform twice by default, and not at all with retry: false', { timeout: 10_000 }, async () => {
    platform.reply = () => problemReply(503, {}, { 'retry-after': '0' });
    await problemOf(await call(make({ retry: undefined }), '/connections/c1'), 503);
    assert.equal(asked().length, 3);
    platform.requests.length = 0;
    await problemOf(await call(make(), '/connections/c1'), 503);
    assert.equal(asked().length, 1);
    // A Retry-After past 3 s is not waited for.
    platform.requests.length = 0;
    platform.reply = () => problemReply(503, {}, { 'retry-after': '4' });
    await problemOf(await call(make({ retry: undefined }), '/connections/c1'), 503);
    assert.equal(asked().length, 1);
  });

  it('warns at start-up only for plain http off loopback', { timeout: 10_000 }, () => {
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (line: string) => warnings.push(line);
    try {
      for (const baseUrl of [
        'http://localhost/v1',
        'http://LOCALHOST./v1',
        'http://api.localhost:8080/v1',
        'http://127.10.0.1/v1',
        'http://[::1]:4010/v1',
        'https://platform.example/v1',
      ]) {
        make({ baseUrl });
        assert.deepEqual(warnings, [], baseUrl);
      }
      for (const baseUrl of [
        'http://platform.example/v1',
        'http://127.0.0.1.nip.io/v1',
        'http://localhostx/v1',
        'http://notlocalhost/v1',
        'http://[::2]/v1',
      ]) {
        warnings.length = 0;
        make({ baseUrl });
        assert.equal(warnings.length, 1, baseUrl);
        assert.match(
          warnings[0],
          /^\[connect-provider\] baseUrl http:\/\/.* is plain http on a host that is not loopback/,
        );
      }
    } finally {
      console.warn = original;
    }
  });
});
