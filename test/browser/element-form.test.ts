// The form way (docs/element.md, "Every way a provider signs in"): providers that sign in with an API key, a
// username and password, client credentials or custom inputs connect through labelled inputs, one request to the
// element's backend and the same verification as after a popup; no popup opens. A scheme the element cannot sign in
// with (jwt) ends the flow as a developer's error, with no popup either. Real handler, real emulator, real typing; the
// popup blocker is on.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  button,
  ended,
  flowRequests,
  freshSessionEachTest,
  held,
  recordConsole,
  serverLog,
  statusText,
  uniqueTag,
  userClick,
  waitEvent,
  warnings,
  watch,
  type CapturedPopups,
  type Recorded,
} from './helpers.js';

const fields = (el: ConnectProvider) => [
  ...el.shadowRoot!.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[part=field]'),
];
const field = (el: ConnectProvider, name: string) =>
  el.shadowRoot!.querySelector<HTMLInputElement>(`[part=field][data-field="${name}"]`)!;

async function make(provider: string, tag = uniqueTag(), mode = 'ok') {
  const el = (await fixture(
    html`<connect-provider
      endpoint=${`/observe/${tag}/${mode}/api/connect`}
      provider=${provider}
      poll-interval="100"
    ></connect-provider>`,
  )) as ConnectProvider;
  // The provider's info decides the inputs: wait until they show.
  await waitUntil(() => fields(el).length > 0, `no inputs for ${provider}`, { timeout: 5000 });
  return { el, tag };
}

/**
 * Types into an input as a user does: focus, then keys. Returns what the input holds (WebKit's driver may drop a
 * repeated key, so the text as typed is not always the text held).
 */
async function type(el: ConnectProvider, name: string, text: string): Promise<string> {
  field(el, name).focus();
  await sendKeys({ type: text });
  const held = field(el, name).value;
  expect(held.length, `typed into ${name}`).to.be.greaterThan(text.length / 2);
  return held;
}

/** A unique text to search for everywhere. */
const marker = (what: string) => `M${what}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

describe('the form way', () => {
  let popups: CapturedPopups;
  freshSessionEachTest((session) => ({ popups } = session));

  const SCHEMES = [
    { provider: 'apollo', inputs: { apiKey: 'key' }, sent: (v: Record<string, string>) => ({ apiKey: v.apiKey }) },
    {
      provider: 'insightly',
      inputs: { username: 'key' },
      sent: (v: Record<string, string>) => ({ basicAuth: { username: v.username, password: '' } }),
    },
    {
      provider: 'cloudtalk',
      inputs: { username: 'user', password: 'pw' },
      sent: (v: Record<string, string>) => ({ basicAuth: { username: v.username, password: v.password } }),
    },
    {
      provider: 'paypal',
      inputs: { clientId: 'id', clientSecret: 'secret' },
      sent: (v: Record<string, string>) => ({
        oauth2ClientCredentials: { clientId: v.clientId, clientSecret: v.clientSecret },
      }),
    },
    {
      provider: 'clariCopilot',
      inputs: { apiKey: 'key', apiSecret: 'secret' },
      sent: (v: Record<string, string>) => ({ customAuth: { apiKey: v.apiKey, apiSecret: v.apiSecret } }),
    },
  ];

  for (const scheme of SCHEMES) {
    it(`should connect ${scheme.provider} through its form and verify it, with no popup`, async () => {
      const { el, tag } = await make(scheme.provider);
      expect(fields(el).map((f) => f.dataset.field)).to.deep.equal(Object.keys(scheme.inputs));
      const values: Record<string, string> = {};
      for (const [name, what] of Object.entries(scheme.inputs)) values[name] = await type(el, name, marker(what));
      const inputs = fields(el);
      const w = watch(el);
      await userClick(el);
      // Sent: a masked value has left its input at once; what is not secret stays until the outcome.
      const masked = inputs.filter((f) => f.dataset.masked !== undefined);
      expect(masked.map((f) => f.value)).to.deep.equal(masked.map(() => ''));
      const end = await ended(w);
      // Connected: the form is gone, and with it every value.
      expect(fields(el)).to.have.length(0);
      expect(end.type, JSON.stringify(end.detail)).to.equal('connect-success');
      expect(w.states).to.deep.equal(['idle', 'requesting', 'verifying', 'working']);
      expect(w.events[0].detail).to.deep.equal({ mode: 'create', scheme: 'form', provider: scheme.provider });
      expect(w.types()).to.not.include('connect-popup');
      expect(w.types()).to.include('connect-connection');
      expect(popups.popups, 'no window opened').to.have.length(0);
      expect(el.getAttribute('connection-status')).to.equal('working');
      const posts = (await serverLog(tag)).filter((r) => r.method === 'POST');
      expect(posts.map((r) => r.path)).to.deep.equal(['/api/connect/connections']);
      expect(JSON.parse(posts[0].body)).to.deep.include({ provider: scheme.provider, ...scheme.sent(values) });
      expect(held(el)).to.equal(0);
    });
  }

  it('should end bad_credentials when the provider refuses what was typed', async () => {
    const { el } = await make('apollo');
    await type(el, 'apiKey', 'an-invalid-key');
    const w = watch(el);
    await userClick(el);
    const end = await ended(w);
    expect(end.type).to.equal('connect-error');
    expect(end.detail.code).to.equal('bad_credentials');
    expect(el.state).to.equal('bad_credentials');
    expect(statusText(el)).to.match(/did not accept/);
    expect(el.getAttribute('connection-status')).to.equal('bad_credentials');
  });

  it('should stop a value longer than the handler takes before sending it: no event, no request, the input named', async () => {
    const { el, tag } = await make('apollo');
    const key = field(el, 'apiKey');
    expect(key.maxLength, 'the input takes no more than the handler').to.equal(4096);
    // A script may set more than the input takes; the click still sends nothing.
    key.value = 'k'.repeat(4097);
    key.dispatchEvent(new Event('input', { bubbles: true }));
    const w = watch(el);
    const before = (await serverLog(tag)).length;
    await userClick(el);
    await el.updateComplete;
    expect(w.events).to.have.length(0);
    expect((await serverLog(tag)).length).to.equal(before);
    expect(statusText(el)).to.equal('“API key” is too long.');
    expect(key.getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot!.activeElement).to.equal(key);
  });

  it('should stop the click on an empty input: no event, no request, the input focused and named', async () => {
    const { el, tag } = await make('cloudtalk');
    await type(el, 'username', 'someone');
    const w = watch(el);
    const before = (await serverLog(tag)).length;
    await userClick(el);
    await el.updateComplete;
    expect(w.events).to.have.length(0);
    expect(el.shadowRoot!.activeElement).to.equal(field(el, 'password'));
    expect(statusText(el)).to.match(/Password/);
    expect((await serverLog(tag)).length).to.equal(before);
    expect(field(el, 'username').value, 'what was typed stays').to.equal('someone');
  });

  it('should submit on Enter in an input', async () => {
    const { el } = await make('apollo');
    await type(el, 'apiKey', marker('enter'));
    const w = watch(el);
    await sendKeys({ press: 'Enter' });
    expect((await ended(w)).type).to.equal('connect-success');
    expect(w.events[0].detail.scheme).to.equal('form');
  });

  it('should send the option chosen in a select input', async () => {
    const { el, tag } = await make('clariCopilot', uniqueTag(), 'select');
    const select = field(el, 'apiKey') as unknown as HTMLSelectElement;
    expect(select.tagName).to.equal('SELECT');
    expect([...select.options].map((o) => o.value)).to.deep.equal(['', 'key-eu', 'key-us']);
    select.value = 'key-us';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await type(el, 'apiSecret', marker('secret'));
    const w = watch(el);
    await userClick(el);
    expect((await ended(w)).type).to.equal('connect-success');
    const post = (await serverLog(tag)).find((r) => r.method === 'POST')!;
    expect(JSON.parse(post.body).customAuth.apiKey).to.equal('key-us');
  });

  it('should reconnect through the update route: empty inputs again, a way back, updateMask of the kind', async () => {
    const { el, tag } = await make('apollo');
    await type(el, 'apiKey', 'an-invalid-key');
    let w = watch(el);
    await userClick(el);
    expect((await ended(w)).detail.code).to.equal('bad_credentials');
    const id = el.connection!.id;
    // The refused first sign-in keeps its form open; its way back closes it.
    await waitUntil(() => !!button(el, 'back'), 'the refused form has no way back');
    await userClick(el, 'back');
    // At rest with a connection that does not work: no inputs until the button is clicked.
    await waitUntil(() => fields(el).length === 0 && !button(el, 'back'), 'the form stayed open');
    await userClick(el);
    await waitUntil(() => fields(el).length === 1, 'the reconnect form did not open');
    expect(field(el, 'apiKey').value, 'never the old value').to.equal('');
    await userClick(el, 'back');
    await waitUntil(() => fields(el).length === 0, 'the way back did not close the form');
    expect(el.getAttribute('connection-status')).to.equal('bad_credentials');
    await userClick(el);
    await waitUntil(() => fields(el).length === 1, 'the reconnect form did not open again');
    const key = await type(el, 'apiKey', marker('renewed'));
    w = watch(el);
    await sendKeys({ press: 'Enter' });
    const end = await ended(w);
    expect(end.type, JSON.stringify(end.detail)).to.equal('connect-success');
    expect(w.events[0].detail).to.deep.equal({ mode: 'update', scheme: 'form', provider: 'apollo' });
    expect(end.detail.connection.id).to.equal(id);
    const patch = (await serverLog(tag)).filter((r) => r.method === 'PATCH');
    expect(patch.map((r) => r.path)).to.deep.equal([`/api/connect/connections/${id}`]);
    expect(JSON.parse(patch[0].body)).to.deep.equal({ apiKey: key });
    expect(fields(el)).to.have.length(0);
  });
});

describe('a scheme the element cannot sign in with', () => {
  let popups: CapturedPopups;
  freshSessionEachTest((session) => ({ popups } = session));

  it('should end invalid_config after connect-start, warning once with the scheme, and open no popup (jwt)', async () => {
    // The observed front's jwt mode: Slack's info says authType jwt.
    const tag = uniqueTag();
    const el = (await fixture(
      html`<connect-provider endpoint=${`/observe/${tag}/jwt/api/connect`} provider="slack"></connect-provider>`,
    )) as ConnectProvider;
    // The provider's info has come: its icon is on the button.
    await waitUntil(() => el.shadowRoot!.querySelector('img[part=icon]'), 'no provider info', { timeout: 5000 });
    const w = watch(el);
    const seen = await warnings(async () => {
      await userClick(el);
      const end = await ended(w);
      expect(end.type, JSON.stringify(end.detail)).to.equal('connect-error');
      expect(end.detail.code).to.equal('invalid_config');
      // Nothing may follow: no popup opened late, no second end.
      await aTimeout(250);
    });
    expect(w.types()).to.deep.equal(['connect-start', 'connect-error']);
    expect(seen, seen.join('\n')).to.deep.equal([
      '<connect-provider>: provider "slack" signs in with jwt, which the element does not support',
    ]);
    expect(popups.popups, 'no window opened').to.have.length(0);
    expect(el.state).to.equal('error');
    expect(flowRequests(await serverLog(tag)), 'no request of a flow').to.deep.equal([]);
  });
});

describe('a secret typed into the form', () => {
  freshSessionEachTest(() => {});

  it('should reach the platform once, and appear in no attribute, detail, property, console line, status or later request', async () => {
    const { el, tag } = await make('cloudtalk');
    const seen: Recorded[] = [];
    for (const type of ['connect-start', 'connect-connection', 'connect-status', 'connect-success', 'connect-error'])
      el.addEventListener(type, (e) => seen.push({ type, detail: (e as CustomEvent).detail }));
    const logged = recordConsole();
    const statuses: string[] = [];
    const observer = new MutationObserver(() => statuses.push(statusText(el)));
    observer.observe(el.shadowRoot!, { subtree: true, characterData: true, childList: true });
    try {
      await type(el, 'username', 'someone');
      const secret = await type(el, 'password', marker('secret'));
      const w = watch(el);
      await userClick(el);
      expect((await ended(w)).type).to.equal('connect-success');
      expect(await (await fetch(`/__test__/platform-holds?text=${secret}`)).json(), 'the platform has it').to.equal(1);
      // Later requests: a disconnect.
      await waitEvent(w, 'connect-success');
      await el.disconnect();
      const log = await serverLog(tag);
      const carrying = log.filter((r) => r.body.includes(secret));
      expect(carrying.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['POST /api/connect/connections']);
      expect(log.filter((r) => (r.answer ?? '').includes(secret))).to.have.length(0);
      const everywhere = [
        el.outerHTML,
        el.shadowRoot!.innerHTML,
        ...fields(el).map((f) => f.value),
        JSON.stringify(seen),
        JSON.stringify(el.connection ?? null),
        JSON.stringify(el.error ?? null),
        // Every property: own ones, and the reactive ones (public and internal state, kept under symbols).
        ...[...Object.keys(el), ...(el.constructor as typeof ConnectProvider).elementProperties.keys()].map((key) => {
          try {
            return JSON.stringify((el as unknown as Record<PropertyKey, unknown>)[key]) ?? '';
          } catch {
            return '';
          }
        }),
        ...logged.lines,
        ...statuses,
      ].join('\n');
      expect(everywhere.includes(secret), 'the secret leaked').to.equal(false);
    } finally {
      observer.disconnect();
      logged.restore();
    }
  });
});
