// A credential the user typed never reaches the browser's problem or onError, in whatever encoding a platform's error
// repeats it: every credential field of every kind, times every encoding a platform could echo (as typed, base64 at
// each alignment and URL-safe, the Basic header of a pair, percent- and form-encoded, HTML-escaped, JSON `\u0026`
// escapes, hex, capitals, a 16-character prefix, a 12-character run), in a 4xx (the browser's detail and issues) and
// a 5xx (onError), on create and on update.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectHandler, type ConnectHandlerErrorInfo } from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { call, problemReply } from '../helpers/handler-calls.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

/** Each provider's scheme, as its connections name it. */
const SCHEMES = {
  apollo: 'apiKey',
  cloudtalk: 'basic',
  paypal: 'oauth2/clientCredentials',
  legacy: 'oauth2/password',
  custom: 'custom',
} as const;

const PROVIDERS: Record<string, unknown> = {
  apollo: { name: 'apollo', authType: 'apiKey' },
  cloudtalk: { name: 'cloudtalk', authType: 'basic' },
  paypal: { name: 'paypal', authType: 'oauth2', oauth2Opts: { grantType: 'clientCredentials' } },
  legacy: { name: 'legacy', authType: 'oauth2', oauth2Opts: { grantType: 'password' } },
  custom: { name: 'custom', authType: 'custom', customOpts: { inputs: [{ name: 'token' }, { name: 'account' }] } },
};

/** A unique value with the characters each encoding changes: space, & < > " ' + / : and a non-ASCII letter. */
const mark = (what: string) =>
  `${what}~${Math.random().toString(36).slice(2, 10)} &<>"'+/:é${Math.random().toString(36).slice(2, 8)}`;

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Each way a platform could repeat a secret, by name. */
const ENCODINGS: Record<string, (secret: string) => string> = {
  raw: (s) => s,
  capitals: (s) => s.toUpperCase(),
  base64: (s) => b64(s),
  'base64 after 1 byte': (s) => b64(`x${s}`),
  'base64 after 2 bytes': (s) => b64(`xy${s}`),
  base64url: (s) => Buffer.from(s).toString('base64url'),
  'Basic header': (s) => `Basic ${b64(s)}`,
  percent: (s) => encodeURIComponent(s),
  form: (s) => new URLSearchParams({ v: s }).toString().slice(2),
  html: (s) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
  'json \\u escapes': (s) =>
    JSON.stringify(s)
      .slice(1, -1)
      .replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  hex: (s) => Buffer.from(s).toString('hex'),
  'prefix of 16': (s) => s.slice(0, 16),
  'run of 12': (s) => s.slice(3, 15),
};

interface Case {
  provider: string;
  body: Record<string, unknown>;
  /** The texts the platform may repeat: each value, and the pairs basic auth carries. */
  secrets: Record<string, string>;
}

function cases(): Case[] {
  const key = mark('key');
  const [u, p] = [mark('user'), mark('pass')];
  const [i, s] = [mark('client'), mark('csecret')];
  const [pu, pp, pi, ps] = [mark('puser'), mark('ppass'), mark('pclient'), mark('psecret')];
  const [t, a] = [mark('token'), mark('account')];
  return [
    { provider: 'apollo', body: { apiKey: key }, secrets: { apiKey: key } },
    {
      provider: 'cloudtalk',
      body: { basicAuth: { username: u, password: p } },
      secrets: { username: u, password: p, 'username:password': `${u}:${p}` },
    },
    {
      provider: 'paypal',
      body: { oauth2ClientCredentials: { clientId: i, clientSecret: s } },
      secrets: { clientId: i, clientSecret: s, 'clientId:clientSecret': `${i}:${s}` },
    },
    {
      provider: 'legacy',
      body: { oauth2PasswordCredentials: { username: pu, password: pp, clientId: pi, clientSecret: ps } },
      secrets: {
        username: pu,
        password: pp,
        clientId: pi,
        clientSecret: ps,
        'username:password': `${pu}:${pp}`,
        'clientId:clientSecret': `${pi}:${ps}`,
      },
    },
    { provider: 'custom', body: { customAuth: { token: t, account: a } }, secrets: { token: t, account: a } },
  ];
}

/** Every string in a JSON value, recursively. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

/** What of `echo` (and of the secret itself, in any case) a text still shows: the text, or undefined when none. */
function leak(texts: string[], echo: string, secret: string): string | undefined {
  const runs = (s: string) => Array.from({ length: Math.max(1, s.length - 11) }, (_, k) => s.slice(k, k + 12));
  const echoRuns = runs(echo);
  const secretRuns = runs(secret.toLowerCase());
  return texts.find(
    (text) => echoRuns.some((r) => text.includes(r)) || secretRuns.some((r) => text.toLowerCase().includes(r)),
  );
}

describe('a credential the platform repeats in any encoding', () => {
  let platform: TestServer;
  /** What the platform answers the credential call: a problem repeating `echo`. */
  let failure: (echo: string) => ReturnType<typeof problemReply> = () => problemReply(500);
  let echo = '';
  const errors: ConnectHandlerErrorInfo[] = [];

  before(async () => {
    platform = await startTestServer((request) => {
      const asked = /^\/v1\/providers\/([^/]+)$/.exec(request.path)?.[1];
      if (asked) return PROVIDERS[asked] ? { body: PROVIDERS[asked] } : problemReply(404);
      const id = /^\/v1\/projects\/demo\/connections\/([^/:]+)$/.exec(request.path)?.[1];
      if (request.method === 'GET' && id)
        return { body: sampleConnection({ id, provider: id, authScheme: SCHEMES[id as keyof typeof SCHEMES] }) };
      return failure(echo);
    });
  });
  after(() => platform.close());

  const handler = () =>
    createConnectHandler({
      apiKey: 'echo-test-key-Qm4Zt8Wv',
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
      retry: false,
      onError: (info) => void errors.push(info),
    });

  it('hides every field of every kind, in every encoding, in a 4xx and a 5xx, on create and update', async (t) => {
    const connect = handler();
    const leaks: string[] = [];
    let combinations = 0;
    for (const { provider, body, secrets } of cases()) {
      for (const [field, secret] of Object.entries(secrets)) {
        for (const [encoding, encode] of Object.entries(ENCODINGS)) {
          echo = encode(secret);
          for (const [status, route] of [
            [400, 'create'],
            [500, 'create'],
            [422, 'update'],
            [503, 'update'],
          ] as const) {
            combinations++;
            failure = (e) =>
              status < 500
                ? problemReply(status, {
                    detail: `refused ${e} here`,
                    issues: [{ in: 'body', name: field, detail: `bad ${e}`, value: e }],
                  })
                : problemReply(status, { title: `failed ${e}`, detail: `broke on ${e} here` });
            errors.length = 0;
            const response =
              route === 'create'
                ? await call(connect, '/api/connect/connections', { method: 'POST', body: { provider, ...body } })
                : await call(connect, `/api/connect/connections/${provider}`, { method: 'PATCH', body });
            const text = await response.text();
            assert.equal(response.status, status < 500 ? 400 : status === 503 ? 503 : 502, text);
            if (status >= 500) assert.equal(errors.length, 1, `${provider} ${field} ${encoding}: onError told`);
            const seen = [...strings(JSON.parse(text)), ...errors.flatMap((info) => strings(info))];
            const shown = leak(seen, echo, secret);
            if (shown !== undefined) leaks.push(`${route} ${status} ${provider} ${field} as ${encoding}: ${shown}`);
          }
        }
      }
    }
    t.diagnostic(`${combinations} combinations, ${leaks.length} leaks`);
    assert.ok(combinations >= 151, `${combinations} combinations`);
    assert.equal(leaks.length, 0, `${leaks.length} of ${combinations} leak:\n${leaks.slice(0, 20).join('\n')}`);
  });

  it('still shows the rest of the platform’s text, and a field’s name', async () => {
    const key = mark('key');
    echo = b64(key);
    failure = (e) =>
      problemReply(400, { detail: `refused ${e} here`, issues: [{ in: 'body', name: 'apiKey', detail: 'too short' }] });
    const response = await call(handler(), '/api/connect/connections', {
      method: 'POST',
      body: { provider: 'apollo', apiKey: key },
    });
    const problem = JSON.parse(await response.text());
    assert.match(problem.detail, /^refused \[redacted\]=* here$/);
    assert.deepEqual(problem.issues, [{ detail: 'too short', in: 'body', name: 'apiKey' }]);
  });
});
