// What the element shows and how the page hears it: a real button, the status
// line in plain words (as text, never HTML), colours that follow the page's
// colour scheme with AA contrast, texts of the running flow's provider, and
// events that bubble out of shadow roots.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  button,
  ended,
  ready,
  userClick,
  waitEvent,
  watch,
  freshSessionEachTest,
  type CapturedPopups,
} from './helpers.js';

/** The element, once its connection is read (its label is final: no neutral "Salesforce" while reading). */
async function make(
  template = html`<connect-provider endpoint="/api/connect" provider="salesforce"></connect-provider>`,
) {
  const el = (await fixture(template)) as ConnectProvider;
  if (el.endpoint) await ready(el);
  return el;
}

const status = (el: ConnectProvider) => el.shadowRoot!.querySelector<HTMLElement>('[part=status]')!;

describe('<connect-provider> rendering', () => {
  let popups: CapturedPopups;
  freshSessionEachTest((session) => ({ popups } = session));
  afterEach(() => {
    document.documentElement.style.colorScheme = '';
    document.body.style.background = document.body.style.color = '';
  });

  it('should render a real button labelled "Connect Salesforce", and be accessible', async () => {
    const el = await make();
    expect(button(el).tagName).to.equal('BUTTON');
    expect(button(el).type).to.equal('button');
    expect(button(el).textContent!.trim()).to.equal('Connect Salesforce');
    expect(el.state).to.equal('idle');
    expect(el.hasAttribute('state'), 'the default state is not written on the host').to.equal(false);
    expect(status(el).getAttribute('role')).to.equal('status');
    await expect(el).to.be.accessible();
  });

  it('should take its label from the slot', async () => {
    const el = await make(
      html`<connect-provider endpoint="/api/connect" provider="slack">Add Slack</connect-provider>`,
    );
    const slot = el.shadowRoot!.querySelector('slot')!;
    expect(
      slot
        .assignedNodes()
        .map((n) => n.textContent)
        .join(''),
    ).to.equal('Add Slack');
    await expect(el).to.be.accessible();
  });

  it('should say "Reconnect" in update mode and use replaced strings', async () => {
    const el = await make(
      html`<connect-provider endpoint="/api/connect" provider="hubspot" connection-id="c1"></connect-provider>`,
    );
    expect(button(el).textContent!.trim()).to.equal('Reconnect HubSpot');
    el.strings = { reconnect: 'Erneut verbinden' };
    await el.updateComplete;
    expect(button(el).textContent!.trim()).to.equal('Erneut verbinden');
  });

  it('should render hostile text as text, in the label and in the status line', async () => {
    // Markup that shows as elements if parsed, without a blocking alert(): the test fails, never hangs.
    const hostile = '<img src=x onerror="window.pwned=1">';
    const el = await make(html`<connect-provider endpoint="/api/connect" provider=${hostile}></connect-provider>`);
    el.strings = { unknownProvider: '<b>Failed</b> for {provider}' };
    const w = watch(el);
    await userClick(el);
    // The backend refuses the provider: the status line shows the (replaced) error text with the name in it.
    await ended(w);
    await el.updateComplete;
    // (booleans: a DOM node in a failure report does not serialize, and the run would hang)
    expect(el.shadowRoot!.querySelector('img, b') === null, 'no markup parsed').to.equal(true);
    expect(button(el).textContent).to.contain('<img');
    // The name, not a word of letters, is isolated (U+2068…U+2069) in the text.
    expect(status(el).textContent).to.equal('<b>Failed</b> for \u2068<img src=x onerror="window.pwned=1">\u2069');
    expect((window as { pwned?: number }).pwned).to.equal(undefined);
  });

  it('should reflect disabled and ignore clicks then', async () => {
    const el = await make(
      html`<connect-provider endpoint="/api/connect" provider="slack" disabled></connect-provider>`,
    );
    const w = watch(el);
    expect(button(el).disabled).to.equal(true);
    await userClick(el);
    await el.updateComplete;
    expect(w.events).to.deep.equal([]);
    expect(popups.popups).to.have.length(0);
  });

  it('should keep styles inside its shadow root and expose parts and custom properties', async () => {
    const el = await make();
    const outside = document.createElement('button');
    document.body.append(outside);
    try {
      expect(getComputedStyle(outside).backgroundColor).to.not.equal('rgb(79, 70, 229)');
      expect(getComputedStyle(button(el)).backgroundColor).to.equal('rgb(79, 70, 229)');
      el.style.setProperty('--connect-provider-background', 'rgb(1, 2, 3)');
      expect(getComputedStyle(button(el)).backgroundColor).to.equal('rgb(1, 2, 3)');
    } finally {
      outside.remove();
    }
  });

  describe('colours', () => {
    /** Ends a flow in error at once (no endpoint), so the status line shows in the error colour. */
    async function failed() {
      const el = await make(html`<connect-provider provider="slack"></connect-provider>`);
      const w = watch(el);
      const real = console.warn;
      console.warn = () => {};
      try {
        await userClick(el);
        await ended(w);
      } finally {
        console.warn = real;
      }
      await el.updateComplete;
      return el;
    }

    const marker = (el: ConnectProvider) => getComputedStyle(status(el), '::before').backgroundColor;

    it('should follow a light page, whatever the OS preference: the page text colour, a red marker, AA contrast', async () => {
      document.documentElement.style.colorScheme = 'light';
      const el = await failed();
      expect(getComputedStyle(status(el)).color).to.equal(getComputedStyle(document.body).color);
      expect(marker(el)).to.equal('rgb(185, 28, 28)');
      await expect(el).to.be.accessible();
    });

    it('should follow a dark page, with AA contrast', async () => {
      document.documentElement.style.colorScheme = 'dark';
      document.body.style.background = '#111827';
      document.body.style.color = '#f9fafb';
      const el = await failed();
      expect(getComputedStyle(status(el)).color).to.equal('rgb(249, 250, 251)');
      expect(marker(el)).to.equal('rgb(252, 165, 165)');
      await expect(el).to.be.accessible();
    });

    it('should keep the status marker in the system text colour in forced-colors mode', async function () {
      try {
        await emulateMedia({ forcedColors: 'active' });
      } catch {
        // Firefox through Puppeteer and WebKit through WebDriver cannot emulate forced colours.
        this.skip();
      }
      try {
        if (!matchMedia('(forced-colors: active)').matches) this.skip();
        const el = await failed();
        const probe = document.createElement('span');
        probe.style.color = 'CanvasText';
        document.body.append(probe);
        const canvasText = getComputedStyle(probe).color;
        probe.remove();
        expect(marker(el), 'the marker shows, in the colour of text').to.equal(canvasText);
        await expect(el).to.be.accessible();
      } finally {
        await emulateMedia({ forcedColors: 'none' });
      }
    });

    it('should stay readable on a page dark by CSS alone (no color-scheme): the status line takes its text colour', async () => {
      document.body.style.background = '#111827';
      document.body.style.color = '#f9fafb';
      const el = await failed();
      expect(getComputedStyle(status(el)).color).to.equal('rgb(249, 250, 251)');
      await expect(el).to.be.accessible();
    });
  });

  it("should speak of the running flow's provider even when the attribute changes mid-flow", async () => {
    const el = await make(
      html`<connect-provider endpoint="/api/connect" provider="salesforce" poll-interval="100"></connect-provider>`,
    );
    const w = watch(el);
    await userClick(el);
    await waitEvent(w, 'connect-popup');
    el.provider = 'hubspot';
    await el.updateComplete;
    expect(status(el).textContent).to.equal('Waiting for Salesforce…');
    expect(button(el).textContent).to.equal('Connect Salesforce');
    el.cancel();
    await ended(w);
    await el.updateComplete;
    // After the flow: the new provider, by its displayName once its info is read.
    await waitUntil(() => button(el).textContent === 'Connect HubSpot', `label: ${button(el).textContent}`);
  });

  it('should fire events that bubble and cross shadow roots', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const el = document.createElement('connect-provider');
    el.setAttribute('endpoint', '/api/connect');
    el.setAttribute('provider', 'slack');
    shadow.append(el);
    const heard: string[] = [];
    const types = ['connect-start', 'connect-popup', 'connect-cancel'];
    const onEvent = (e: Event) => heard.push(e.type);
    for (const type of types) document.addEventListener(type, onEvent);
    try {
      await el.updateComplete;
      const w = watch(el);
      await userClick(el);
      await waitEvent(w, 'connect-popup');
      el.cancel();
      await ended(w);
      expect(heard).to.deep.equal(types);
    } finally {
      for (const type of types) document.removeEventListener(type, onEvent);
      host.remove();
    }
  });
});
