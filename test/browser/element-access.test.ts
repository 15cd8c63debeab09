// Everyone who meets the element can use it (docs/element.md, "Accessibility and theming"; issue #34): the keyboard
// path through disconnect keeps the focus on a visible control and announces the outcome, Escape keeps the
// connection, the confirmation reads as a question with a button that says what it does, an input is named by its
// label and described by its hint (and by the status line when it is wrong), the status region is always in the
// accessibility tree, a busy button stays readable, icons sit on a light tile, the docs link reads on any page; and a
// host's mistake (no allowDisconnect) hides Disconnect with one warning naming the fix. axe in every state.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/integrations.js';
import type { ConnectIntegrations, ConnectProvider } from '../../src/integrations.js';
import {
  button,
  freshSessionEachTest,
  placeElement,
  seedConnection,
  serverLog,
  setFault,
  statusText,
  uniqueTag,
  userClick,
  waitEvent,
  warnings,
  watch,
} from './helpers.js';

const part = (el: Element, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const focused = (el: ConnectProvider) => el.shadowRoot!.activeElement as HTMLElement | null;

/** WCAG relative luminance contrast of two computed rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map(Number)
      .map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

async function connected(group: string, attributes = 'disconnectable', endpoint = '/api/connect') {
  await seedConnection(group, 'slack', 'allow');
  const el = await placeElement(endpoint, 'slack', attributes);
  await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read');
  await el.updateComplete;
  return el;
}

describe('<connect-provider> for everyone', () => {
  let group: string;
  freshSessionEachTest((session) => ({ group } = session));
  afterEach(() => {
    document.documentElement.style.colorScheme = '';
    document.body.style.background = document.body.style.color = '';
  });

  describe('disconnect by keyboard', () => {
    it('should keep the focus on a visible control from Enter to done, and announce "Disconnected from Slack."', async () => {
      const tag = uniqueTag();
      // The DELETE takes a second: long enough to see where the focus is while it is sent.
      await setFault(tag, { match: '^DELETE ', delay: 1000 });
      const el = await connected(group, 'disconnectable', `/observe/${tag}/real/api/connect`);
      part(el, 'disconnect')!.focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(part(el, 'disconnect')!.textContent).to.equal('Yes, disconnect');
      expect(statusText(el)).to.equal('Disconnect Slack?');
      await expect(el).to.be.accessible();
      const heard = new Promise((resolve) => el.addEventListener('connect-disconnect', resolve, { once: true }));
      await sendKeys({ press: 'Enter' });
      // Where the focus is, frame by frame, until it is done: always a control of the element, never <body>.
      const seen = new Set<string>();
      let done = false;
      void heard.then(() => (done = true));
      for (const until = Date.now() + 8000; !done;) {
        if (Date.now() > until) throw new Error(`not disconnected in 8 s; the focus was on ${[...seen]}`);
        seen.add(document.activeElement === el ? String(focused(el)?.getAttribute('part')) : 'outside');
        await new Promise(requestAnimationFrame);
      }
      expect([...seen]).to.deep.equal(['disconnect']);
      await el.updateComplete;
      expect(statusText(el)).to.equal('Disconnected from Slack.');
      expect(focused(el) === part(el, 'button'), 'the focus went to the main button, not to <body>').to.equal(true);
      expect(document.activeElement).to.equal(el);
      await expect(el).to.be.accessible();
    });

    it('should keep the connection on Escape in the confirmation, asking the backend nothing', async () => {
      const tag = uniqueTag();
      const el = await connected(group, 'disconnectable', `/observe/${tag}/real/api/connect`);
      part(el, 'disconnect')!.focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(!!part(el, 'keep'), 'asked to confirm').to.equal(true);
      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      expect(!!part(el, 'keep'), 'the confirmation is gone').to.equal(false);
      expect(part(el, 'disconnect')!.textContent).to.equal('Disconnect');
      expect(el.getAttribute('connection-status')).to.equal('working');
      expect((await serverLog(tag)).filter((r) => r.method === 'DELETE')).to.deep.equal([]);
    });

    it('should describe the confirming button by the question, so a screen reader hears what it confirms', async () => {
      const el = await connected(group);
      await userClick(el, 'disconnect');
      await el.updateComplete;
      const confirm = part(el, 'disconnect')!;
      const ids = confirm.getAttribute('aria-describedby')!.split(' ');
      const described = ids.map((id) => el.shadowRoot!.getElementById(id)!.textContent).join(' ');
      expect(described).to.equal('Disconnect Slack?');
    });
  });

  describe('inputs', () => {
    it('should name an input by its label alone and describe it by its hint and docs link', async () => {
      const el = (await fixture(
        html`<connect-provider endpoint="/api/connect" provider="netsuite"></connect-provider>`,
      )) as ConnectProvider;
      await waitUntil(() => part(el, 'field'), 'no input', { timeout: 8000 });
      const input = part(el, 'field') as HTMLInputElement;
      expect(input.labels![0].textContent!.trim()).to.equal('Account ID');
      const hint = el.shadowRoot!.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0])!;
      expect(hint.querySelector('small')!.textContent).to.match(/NetSuite/);
      expect(hint.querySelector('a[part=link]')!.textContent).to.equal('Where to find it');
      expect(input.labels![0].contains(hint), 'the hint is not in the label').to.equal(false);
      expect(input.getAttribute('aria-invalid')).to.equal('false');
      await expect(el).to.be.accessible();
    });

    it('should mark a malformed workspace invalid and tie it to the message that says why', async () => {
      const el = (await fixture(
        html`<connect-provider endpoint="/api/connect" provider="zendesk"></connect-provider>`,
      )) as ConnectProvider;
      await waitUntil(() => part(el, 'field'), 'no input', { timeout: 8000 });
      const input = part(el, 'field') as HTMLInputElement;
      input.focus();
      await sendKeys({ type: 'not a subdomain!' });
      await userClick(el);
      await el.updateComplete;
      expect(input.getAttribute('aria-invalid')).to.equal('true');
      const ids = input.getAttribute('aria-describedby')!.split(' ');
      expect(ids).to.include('status');
      expect(statusText(el)).to.match(/letters a–z/);
      await expect(el).to.be.accessible();
    });
  });

  describe('what is seen', () => {
    it('should keep the status region in the accessibility tree while it is empty', async () => {
      const el = (await fixture(
        html`<connect-provider endpoint="/api/connect" provider="salesforce"></connect-provider>`,
      )) as ConnectProvider;
      await el.updateComplete;
      const region = part(el, 'status')!;
      expect(region.textContent).to.equal('');
      expect(getComputedStyle(region).display).to.not.equal('none');
      expect(region.getAttribute('role')).to.equal('status');
    });

    it('should keep a busy button at full contrast, its icon on a light tile', async () => {
      const el = (await fixture(
        html`<connect-provider endpoint="/api/connect" provider="slack" poll-interval="100"></connect-provider>`,
      )) as ConnectProvider;
      await waitUntil(() => el.shadowRoot!.querySelector<HTMLImageElement>('img[part=icon]')?.complete, 'no icon');
      const w = watch(el);
      await userClick(el);
      await waitEvent(w, 'connect-start');
      await el.updateComplete;
      const main = button(el);
      expect(main.getAttribute('aria-busy')).to.equal('true');
      const style = getComputedStyle(main);
      expect(style.opacity).to.equal('1');
      expect(contrast(style.color, style.backgroundColor)).to.be.at.least(4.5);
      expect(getComputedStyle(part(el, 'icon')!).backgroundColor).to.equal('rgb(255, 255, 255)');
      el.cancel();
    });

    it('should show the docs link in the page text colour on a page dark by CSS alone, and let the host restyle it', async () => {
      document.body.style.background = 'rgb(18, 18, 18)';
      document.body.style.color = 'rgb(230, 230, 230)';
      const el = (await fixture(
        html`<connect-provider endpoint="/api/connect" provider="netsuite"></connect-provider>`,
      )) as ConnectProvider;
      // The link comes with the provider's info, one backend read: a loaded machine may take longer than a second.
      await waitUntil(() => part(el, 'link'), 'no link', { timeout: 8000 });
      const link = part(el, 'link')!;
      expect(contrast(getComputedStyle(link).color, 'rgb(18, 18, 18)')).to.be.at.least(4.5);
      await expect(el).to.be.accessible();
      el.style.setProperty('--connect-provider-link-color', 'rgb(1, 2, 3)');
      expect(getComputedStyle(link).color).to.equal('rgb(1, 2, 3)');
    });
  });

  describe("a host's mistake", () => {
    it('should hide Disconnect after a 405, with one warning naming allowDisconnect', async () => {
      const tag = uniqueTag();
      await setFault(tag, {
        match: '^DELETE ',
        status: 405,
        count: 5,
        type: 'urn:connect-provider:problem:disconnect-off',
        detail: 'disconnecting is off: set allowDisconnect: true in createConnectHandler to serve DELETE',
      });
      const el = await connected(group, 'disconnectable', `/observe/${tag}/real/api/connect`);
      const seen = await warnings(async () => {
        await userClick(el, 'disconnect');
        await el.updateComplete;
        await userClick(el, 'disconnect');
        await waitUntil(() => !part(el, 'disconnect'), 'Disconnect is still offered');
        await aTimeout(100);
      });
      expect(seen.filter((s) => s.includes('allowDisconnect'))).to.have.length(1);
      expect(statusText(el)).to.equal('Could not disconnect Slack. Please try again.');
      expect(el.getAttribute('connection-status')).to.equal('working');
    });
  });
});

describe("<connect-provider> names a developer's mistake where they look", () => {
  freshSessionEachTest();

  it('should end at once on a non-retryable 500 that says the backend is misconfigured, its detail in the console', async () => {
    const tag = uniqueTag();
    const detail =
      'the connect backend is misconfigured: its authorize() returned neither a user nor null (the server log says what it returned)';
    await setFault(tag, { match: '^POST ', status: 500, count: 10, retryable: false, detail });
    const el = await placeElement(`/observe/${tag}/real/api/connect`, 'slack');
    const w = watch(el);
    const seen = await warnings(async () => {
      await userClick(el);
      await waitUntil(() => w.types().includes('connect-error'), 'no connect-error', { timeout: 3000 });
    });
    expect(w.events.find((e) => e.type === 'connect-error')!.detail.code).to.equal('http_error');
    expect(
      (await serverLog(tag)).filter((r) => r.method === 'POST'),
      'not retried',
    ).to.have.length(1);
    expect(seen.filter((s) => s.includes('authorize()'))).to.have.length(1);
  });

  it("should name the preflight and Vite's server.cors when reads are answered but a POST never is", async () => {
    const tag = uniqueTag();
    // As a dev server's own CORS answers a cross-origin preflight: the POST never reaches the handler.
    await setFault(tag, { match: '^POST ', drop: true, count: 100 });
    const el = await placeElement(`/observe/${tag}/real/api/connect`, 'slack');
    const w = watch(el);
    const seen = await warnings(async () => {
      await userClick(el);
      await waitUntil(() => w.types().some((t) => t === 'connect-error'), 'no connect-error', { timeout: 15000 });
    });
    const named = seen.filter((s) => s.includes('preflight'));
    expect(named, seen.join('\n')).to.have.length(1);
    expect(named[0]).to.include('server.cors: false').and.include('allowedOrigins');
  }).timeout(20000);
});

describe('<connect-integrations> for everyone', () => {
  freshSessionEachTest();
  afterEach(() => {
    document.documentElement.style.colorScheme = '';
    document.body.style.background = document.body.style.color = '';
  });

  for (const [page, set] of [
    ['light', () => (document.documentElement.style.colorScheme = 'light')],
    [
      'dark',
      () => {
        // As the other dark-page tests: axe in Firefox reads an unpainted canvas as white.
        document.documentElement.style.colorScheme = 'dark';
        document.body.style.background = '#111827';
        document.body.style.color = '#f9fafb';
      },
    ],
    [
      'dark by CSS alone',
      () => {
        document.body.style.background = '#121212';
        document.body.style.color = '#e5e7eb';
      },
    ],
  ] as const) {
    it(`should pass axe on a ${page} page, loaded and searched`, async () => {
      set();
      const list = (await fixture(
        html`<connect-integrations endpoint="/api/connect" disconnectable></connect-integrations>`,
      )) as ConnectIntegrations;
      await waitUntil(() => list.shadowRoot!.querySelectorAll('connect-provider').length > 0, 'no rows');
      const rows = [...list.shadowRoot!.querySelectorAll('connect-provider')];
      await waitUntil(() => rows.every((row) => row.hasAttribute('connection-status')), 'rows not read');
      await expect(list).to.be.accessible();
    });
  }
});
