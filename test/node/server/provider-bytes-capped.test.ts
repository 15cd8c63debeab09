// A hostile platform whose provider infos are at every per-field limit cannot make a large answer: each provider's
// browser view is capped at PROVIDER_BYTES.view (a provider over it is left out of the integrations, a 502 on its own
// route, never cached), the whole integrations answer at PROVIDER_BYTES.integrations; onError is told of what was
// left out, without the API key.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROVIDER_BYTES, PROVIDER_LIMITS } from '../../../src/server/provider.js';
import { call } from '../helpers/handler-calls.js';
import type { RecordedRequest, Reply } from '../helpers/http-server.js';
import { DOUBLE_KEY, handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

const text = (n: number, c = 't') => c.repeat(n);
const url = (n: number) => `https://cdn.example/${'u'.repeat(n - 'https://cdn.example/'.length)}`;

/** A provider info with every field the view keeps at its limit (about 4 MB of view). */
function hostile(name: string) {
  const media = { iconURL: url(PROVIDER_LIMITS.url), logoURL: url(PROVIDER_LIMITS.url) };
  const item = (i: number) => ({
    name: `${i}${text(PROVIDER_LIMITS.name - 3, 'n')}`,
    displayName: text(PROVIDER_LIMITS.text),
    prompt: text(PROVIDER_LIMITS.text),
    defaultValue: text(PROVIDER_LIMITS.text),
    docsURL: url(PROVIDER_LIMITS.url),
    fieldType: 'fieldTypeSelect',
    options: Array.from({ length: PROVIDER_LIMITS.options }, () => ({
      value: text(PROVIDER_LIMITS.text, 'v'),
      label: text(PROVIDER_LIMITS.text, 'l'),
    })),
  });
  const inputs = Array.from({ length: PROVIDER_LIMITS.inputs }, (_, i) => item(i));
  return {
    name,
    displayName: text(PROVIDER_LIMITS.text),
    authType: 'custom',
    media: { regular: media, darkMode: media },
    customOpts: { inputs },
    // (Without the options the view leaves out of metadata: the platform client reads 8 MB of an answer at most.)
    metadata: { input: inputs.map(({ options: _options, ...rest }) => rest) },
  };
}
/** A provider info whose view is just under its cap (14 options of 1,000 characters): 1 MB holds about 70 of them. */
const large = (name: string) => ({
  name,
  authType: 'custom',
  customOpts: {
    inputs: [
      {
        name: 'choice',
        fieldType: 'fieldTypeSelect',
        options: Array.from({ length: 14 }, (_, i) => ({ value: `${i}${text(999, 'v')}`, label: 'x' })),
      },
    ],
  },
});

/** A provider's info as JSON text, built once per kind of info (4 MB each for the hostile ones). */
const texts = new Map<(name: string) => object, string>();
function infoText(info: (name: string) => object, name: string): string {
  if (!texts.has(info)) texts.set(info, JSON.stringify(info('NAME-HERE')));
  return texts.get(info)!.replace('NAME-HERE', name);
}

describe('the byte caps on what the browser gets of providers', () => {
  const { platform, make, errors } = handlerOnPlatformDouble();
  const answering =
    (providers: string[], info: (name: string) => object) =>
    (request: RecordedRequest): Reply => {
      if (request.path === '/v1/projects/demo/integrations')
        return { body: providers.map((provider, i) => ({ id: `int_${i}`, provider })) };
      const name = /^\/v1\/providers\/([^/]+)$/.exec(request.path)?.[1];
      if (name === 'slack') return { body: { name: 'slack', authType: 'oauth2' } };
      return { headers: { 'content-type': 'application/json' }, body: infoText(info, name!) };
    };

  it('leaves out of the integrations a provider whose view is over its cap, and tells onError', async (t) => {
    const names = [...Array.from({ length: 25 }, (_, i) => `hostile${i}`), 'slack'];
    platform.reply = answering(names, hostile);
    const response = await call(make({ timeoutMs: 60_000 }), '/api/connect/integrations');
    const body = await response.text();
    const bytes = Buffer.byteLength(body);
    t.diagnostic(`25 hostile providers at the per-field limits and slack: ${bytes} bytes`);
    assert.equal(response.status, 200, body.slice(0, 300));
    assert.deepEqual(
      JSON.parse(body).map((entry: { provider: string }) => entry.provider),
      ['slack'],
    );
    assert.ok(bytes <= PROVIDER_BYTES.integrations);
    assert.equal(errors.length, 25, 'each provider left out is told');
    assert.match(errors[0].message, /view of \d+ bytes, over the 16384/);
    assert.ok(!JSON.stringify(errors).includes(DOUBLE_KEY));
  });

  it('answers a provider over its cap 502 on its own route, and asks again (nothing kept)', async () => {
    platform.reply = answering([], hostile);
    const handler = make();
    const problem = await problemOf(await call(handler, '/api/connect/providers/hostile0'), 502);
    assert.ok(JSON.stringify(problem).length < 2000);
    await problemOf(await call(handler, '/api/connect/providers/hostile0'), 502);
    assert.equal(platform.requests.filter((r) => r.path === '/v1/providers/hostile0').length, 2);
    assert.equal(errors.length, 2);
  });

  it('keeps the whole integrations answer within its cap, leaving out the providers past it in one report', async (t) => {
    const names = Array.from({ length: 100 }, (_, i) => `large${i}`);
    assert.ok(JSON.stringify(large('large99')).length < PROVIDER_BYTES.view);
    platform.reply = answering(names, large);
    const response = await call(make(), '/api/connect/integrations');
    const body = await response.text();
    const bytes = Buffer.byteLength(body);
    assert.equal(response.status, 200, body.slice(0, 300));
    const listed = JSON.parse(body).map((entry: { provider: string }) => entry.provider);
    t.diagnostic(`100 providers just under the view cap: ${bytes} bytes, ${listed.length} listed`);
    assert.ok(bytes <= PROVIDER_BYTES.integrations, `${bytes} bytes`);
    assert.deepEqual(listed, names.slice(0, listed.length), 'the first ones, in the platform order');
    assert.ok(listed.length >= 60, `${listed.length} listed`);
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, new RegExp(`${100 - listed.length} provider\\(s\\) left out`));
  });
});
