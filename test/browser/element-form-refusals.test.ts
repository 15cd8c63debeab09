// The credential form as people and their browsers meet it (docs/element.md, "Every way a provider signs in"): its own
// <form> per element, never the page's login; what the backend refuses is the user's to fix, at the field; a refused
// first sign-in keeps its form; values sent as meant; a masked value shown on request; nothing moves while the request
// runs; Escape and Cancel. Real handler and emulator; the refusals the element cannot foresee come from the observed
// front's modes.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  button,
  ended,
  freshSessionEachTest,
  recordConsole,
  serverLog,
  statusText,
  uniqueTag,
  userClick,
  watch,
} from './helpers.js';

const fields = (el: ConnectProvider) => [
  ...el.shadowRoot!.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[part=field]'),
];
const field = (el: ConnectProvider, name: string) =>
  el.shadowRoot!.querySelector<HTMLInputElement>(`[part=field][data-field="${name}"]`)!;

async function make(provider: string, mode = 'ok', tag = uniqueTag()) {
  const el = (
    await fixture(
      html`<div>
      <connect-provider
        endpoint=${`/observe/${tag}/${mode}/api/connect`}
        provider=${provider}
        poll-interval="100"
      ></connect-provider>
      <p id="below">below</p>
    </div>`,
    )
  ).querySelector('connect-provider') as ConnectProvider;
  await waitUntil(() => fields(el).length > 0, `no inputs for ${provider}`, { timeout: 5000 });
  return { el, tag };
}

async function type(el: ConnectProvider, name: string, text: string): Promise<string> {
  field(el, name).focus();
  await sendKeys({ type: text });
  return field(el, name).value;
}

/** Sets an input's value as a paste does (one input event). */
function paste(el: ConnectProvider, name: string, text: string): void {
  const input = field(el, name);
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

const marker = (what: string) => `M${what}${uniqueTag()}`;
const credentialPosts = async (tag: string) =>
  (await serverLog(tag)).filter((r) => /\/connections(\/[^/]+)?$/.test(r.path) && r.method !== 'GET');

describe('the credential form: its own form, never the page login', () => {
  freshSessionEachTest(() => {});

  it("should put each element's inputs in a form of its own, named for the provider, with no login field names", async () => {
    const { el: cloudtalk } = await make('cloudtalk');
    const { el: paypal } = await make('paypal');
    for (const [el, provider] of [
      [cloudtalk, 'cloudtalk'],
      [paypal, 'paypal'],
    ] as const) {
      const forms = el.shadowRoot!.querySelectorAll('form');
      expect(forms).to.have.length(1);
      expect(forms[0].getAttribute('name')).to.equal(`connect-${provider}`);
      // Named by the provider: a list's rows each have an "API key" or "Password", told apart by their form.
      expect(forms[0].getAttribute('aria-label')).to.equal(provider === 'paypal' ? 'PayPal' : 'CloudTalk');
      expect(fields(el).every((f) => f.form === forms[0])).to.equal(true);
      for (const input of fields(el) as HTMLInputElement[]) {
        const name = input.dataset.field!;
        // No input a password manager takes for a login's: no type=password, no login name or token; a secret is
        // dots by style alone.
        expect(input.type, name).to.equal('text');
        expect(input.name + input.id, name).to.not.match(/user|pass|login|email/i);
        expect(input.autocomplete, name).to.equal('off');
        expect(input.hasAttribute('data-1p-ignore') && input.getAttribute('data-lpignore'), name).to.equal('true');
        expect(input.getAttribute('autocapitalize'), name).to.equal('none');
        expect(input.getAttribute('autocorrect'), name).to.equal('off');
        expect(input.spellcheck, name).to.equal(false);
        const dots = getComputedStyle(input).getPropertyValue('-webkit-text-security');
        expect(dots, name).to.equal(input.dataset.masked === undefined ? 'none' : 'disc');
      }
    }
  });
});

describe('the credential form: a refused input is the user’s to fix', () => {
  freshSessionEachTest(() => {});

  it('should mark the field the backend refused, say why, focus it, and keep what is not secret', async () => {
    const { el } = await make('paypal', 'refuse-secret');
    const id = await type(el, 'clientId', marker('id'));
    await type(el, 'clientSecret', marker('secret'));
    const w = watch(el);
    await userClick(el);
    const end = await ended(w);
    expect(end.detail.code).to.equal('http_error');
    await el.updateComplete;
    const secret = field(el, 'clientSecret');
    await waitUntil(() => el.shadowRoot!.activeElement === secret, 'the refused field was not focused');
    expect(secret.getAttribute('aria-invalid')).to.equal('true');
    expect(secret.getAttribute('aria-describedby')).to.include('status');
    expect(statusText(el)).to.equal('PayPal cannot use this “Client secret”. Check it and try again.');
    expect(field(el, 'clientId').getAttribute('aria-invalid')).to.equal('false');
    expect(field(el, 'clientId').value, 'the Client ID is not secret: it stays').to.equal(id);
    expect(secret.value, 'the secret left at once').to.equal('');
  });

  it('should mark the longest field when the backend finds the request too large', async () => {
    const { el } = await make('paypal', 'too-large');
    await type(el, 'clientId', 'id');
    paste(el, 'clientSecret', 's'.repeat(3000));
    const w = watch(el);
    await userClick(el);
    expect((await ended(w)).detail.problem.status).to.equal(413);
    await waitUntil(() => field(el, 'clientSecret').getAttribute('aria-invalid') === 'true', 'not marked');
    expect(statusText(el)).to.equal('“Client secret” is too long.');
  });

  it('should keep a refused first sign-in’s form open, focused, and not call it a reconnect', async () => {
    const { el, tag } = await make('apollo');
    await type(el, 'apiKey', 'an-invalid-key');
    const w = watch(el);
    await userClick(el);
    expect((await ended(w)).detail.code).to.equal('bad_credentials');
    const key = field(el, 'apiKey');
    await waitUntil(() => el.shadowRoot!.activeElement === key, 'the form is not open with focus on its input');
    expect(button(el).textContent).to.equal('Connect Apollo');
    expect(statusText(el)).to.match(/did not accept/);
    // The next try updates the connection the refused sign-in left, rather than adding another.
    const id = el.connection!.id;
    await type(el, 'apiKey', marker('good'));
    const again = watch(el);
    await sendKeys({ press: 'Enter' });
    expect((await ended(again)).type).to.equal('connect-success');
    expect((await credentialPosts(tag)).map((r) => `${r.method} ${r.path}`)).to.deep.equal([
      'POST /api/connect/connections',
      `PATCH /api/connect/connections/${id}`,
    ]);
  });
});

describe('the credential form: sent as meant', () => {
  freshSessionEachTest(() => {});

  it('should send a pasted value without its surrounding spaces and line break, keeping inner spaces', async () => {
    const { el, tag } = await make('cloudtalk');
    paste(el, 'username', '  KEY-WS-123  \n');
    paste(el, 'password', ' two words ');
    const w = watch(el);
    await userClick(el);
    await ended(w);
    const [post] = await credentialPosts(tag);
    expect(JSON.parse(post.body).basicAuth).to.deep.equal({ username: 'KEY-WS-123', password: 'two words' });
  });

  it('should stop a value of spaces alone as empty, naming the field in its own words', async () => {
    const { el, tag } = await make('apollo');
    paste(el, 'apiKey', '   ');
    const w = watch(el);
    await userClick(el);
    await el.updateComplete;
    expect(w.events).to.have.length(0);
    expect(await credentialPosts(tag)).to.have.length(0);
    expect(statusText(el)).to.equal('Enter “API key” to connect Apollo.');
  });

  it('should show a masked value on request, say whether it is shown, and mask it again once sent', async () => {
    const { el } = await make('apollo');
    const key = field(el, 'apiKey');
    const reveal = button(el, 'reveal');
    const dots = () => getComputedStyle(key).getPropertyValue('-webkit-text-security');
    expect(dots()).to.equal('disc');
    expect(reveal.getAttribute('aria-label')).to.equal('Show API key');
    expect(reveal.getAttribute('aria-pressed')).to.equal('false');
    const secret = marker('shown');
    await type(el, 'apiKey', secret);
    await userClick(el, 'reveal');
    await el.updateComplete;
    expect(dots()).to.equal('none');
    expect(reveal.getAttribute('aria-pressed')).to.equal('true');
    // The control tells its state; the value is never copied anywhere.
    expect(el.shadowRoot!.innerHTML).to.not.include(secret);
    const w = watch(el);
    await userClick(el);
    expect((await ended(w)).type).to.equal('connect-success');
    expect(JSON.stringify(w.events.map((e) => e.detail))).to.not.include(secret);
  });
});

describe('the credential form: nothing moves while it is sent', () => {
  freshSessionEachTest(() => {});

  it('should keep the form in place, read-only and busy, until the outcome', async () => {
    const { el } = await make('cloudtalk', 'slow-form');
    await type(el, 'username', 'someone');
    await type(el, 'password', marker('pw'));
    const below = el.parentElement!.querySelector('#below')!;
    const top = below.getBoundingClientRect().top;
    const under = button(el).getBoundingClientRect();
    const w = watch(el);
    await userClick(el);
    await el.updateComplete;
    expect(fields(el)).to.have.length(2);
    expect((fields(el) as HTMLInputElement[]).every((f) => f.readOnly)).to.equal(true);
    expect(el.shadowRoot!.querySelector('form')!.getAttribute('aria-busy')).to.equal('true');
    // What was under the pointer stays there; what follows moves down at most (the status line's text), never up.
    expect(button(el).getBoundingClientRect().top, 'the button did not move').to.be.closeTo(under.top, 1);
    expect(below.getBoundingClientRect().top, 'the row below did not move up').to.be.at.least(top - 1);
    // A second Enter while it is sent sends nothing more.
    field(el, 'username').focus();
    await sendKeys({ press: 'Enter' });
    expect((await ended(w)).type).to.equal('connect-success');
    expect(w.types().filter((t) => t === 'connect-start')).to.have.length(1);
  });

  it('should end a form request in flight on Cancel, then read and show what the platform holds', async () => {
    const { el } = await make('apollo', 'slow-form');
    await type(el, 'apiKey', marker('late'));
    const w = watch(el);
    await userClick(el);
    await el.updateComplete;
    await userClick(el, 'cancel');
    const end = await ended(w);
    expect(end.type).to.equal('connect-cancel');
    expect(end.detail.reason).to.equal('cancelled');
    // The credential reached the platform after the cancel: the element reads again and tells the truth.
    await waitUntil(() => el.getAttribute('connection-status') === 'working', 'the connection was not read again', {
      timeout: 8000,
    });
    expect(button(el).textContent).to.equal('Reconnect Apollo');
  });

  it('should close a reconnect form on Escape, focus back on the main button', async () => {
    const { el } = await make('apollo');
    await type(el, 'apiKey', marker('first'));
    const w = watch(el);
    await userClick(el);
    await ended(w);
    await waitUntil(() => fields(el).length === 0, 'the form did not close once connected');
    await userClick(el);
    await waitUntil(() => el.shadowRoot!.activeElement === field(el, 'apiKey'), 'the reconnect form did not open');
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => fields(el).length === 0, 'Escape did not close the form');
    await aTimeout(0);
    expect(el.shadowRoot!.activeElement).to.equal(button(el));
  });
});

describe('the credential form in each new state is accessible', () => {
  freshSessionEachTest(() => {});

  it('should pass axe with a refused field, a shown value and a request in flight', async () => {
    const { el } = await make('paypal', 'refuse-secret');
    await type(el, 'clientId', 'id');
    await type(el, 'clientSecret', 'secret');
    await userClick(el, 'reveal');
    await expect(el).to.be.accessible();
    const w = watch(el);
    await userClick(el);
    await ended(w);
    await waitUntil(() => field(el, 'clientSecret').getAttribute('aria-invalid') === 'true', 'not marked');
    await expect(el).to.be.accessible();
  });
});

describe('a secret in the form’s new states', () => {
  freshSessionEachTest(() => {});

  it('should leave a refused, once-shown secret and a kept Client ID nowhere but where they belong', async () => {
    const { el, tag } = await make('paypal', 'refuse-secret');
    const seen: unknown[] = [];
    for (const type of ['connect-start', 'connect-error', 'connect-status', 'connect-loaded'])
      el.addEventListener(type, (e) => seen.push({ type, detail: (e as CustomEvent).detail }));
    const logged = recordConsole();
    const statuses: string[] = [];
    const observer = new MutationObserver(() => statuses.push(statusText(el)));
    observer.observe(el.shadowRoot!, { subtree: true, characterData: true, childList: true, attributes: true });
    try {
      const id = await type(el, 'clientId', marker('id'));
      const secret = await type(el, 'clientSecret', marker('secret'));
      await userClick(el, 'reveal');
      const w = watch(el);
      await userClick(el);
      await ended(w);
      await waitUntil(() => field(el, 'clientSecret').getAttribute('aria-invalid') === 'true', 'not marked');
      const log = await serverLog(tag);
      expect(log.filter((r) => r.body.includes(secret)).map((r) => `${r.method} ${r.path}`)).to.deep.equal([
        'POST /api/connect/connections',
      ]);
      const everywhere = [
        el.outerHTML,
        el.shadowRoot!.innerHTML,
        JSON.stringify(seen),
        JSON.stringify(el.error ?? null),
        JSON.stringify(el.connection ?? null),
        ...logged.lines,
        ...statuses,
        ...log.map((r) => r.answer ?? ''),
      ].join('\n');
      expect(everywhere.includes(secret), 'the secret leaked').to.equal(false);
      expect(everywhere.includes(id), 'the Client ID leaked').to.equal(false);
      expect(fields(el).map((f) => f.value)).to.deep.equal([id, '']);
    } finally {
      observer.disconnect();
      logged.restore();
    }
  });
});
