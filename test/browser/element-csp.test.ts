// The element on a host page under the strict Content-Security-Policy with
// Trusted Types that docs/element.md documents (served as written there, by
// test/browser/server/strict-page.ts): it defines, renders styled and connects
// to a working connection with no violation reported. Where the browser
// enforces Trusted Types, the page really refuses HTML from strings, and the
// failure modes the documentation names hold: a list without lit-html leaves
// the tag undefined, and a second copy of Lit needs 'allow-duplicates'.
import { expect, waitUntil } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import type { ConnectProvider } from '../../src/index.js';
import { answerConsent, signInFreshGroup } from './helpers.js';

/** What the page's own watch script (a script 'self' allows) recorded. */
interface Seen {
  violations: string[];
  errors: string[];
}
/** The frame's window, with its recording and the Trusted Types factory (not in TypeScript's DOM types yet). */
type StrictWindow = Window &
  typeof globalThis & { seen: Seen; trustedTypes?: { createPolicy(name: string, rules: object): unknown } };

/** The strict page in an iframe, once its scripts have run (module scripts run before the load event). */
async function strictPage(query: string): Promise<{ frame: HTMLIFrameElement; win: StrictWindow }> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'position:fixed;left:0;top:0;width:500px;height:300px;border:0';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `/__strict__/page?${query}`;
  document.body.append(frame);
  await loaded;
  return { frame, win: frame.contentWindow as StrictWindow };
}

/** The violations of a trusted-types directive naming lit-html, once one is reported (reports come as tasks). */
async function litHtmlRefused(win: StrictWindow): Promise<string[]> {
  const refused = () => win.seen.violations.filter((v) => /^trusted-types\b.*\blit-html\b/.test(v));
  await waitUntil(() => refused().length > 0, `no trusted-types violation naming lit-html: ${win.seen.violations}`);
  return refused();
}

/** The name of what `fn` throws (the frame's TypeError is not this window's, and each engine words it its own way). */
function thrownBy(fn: () => unknown): string {
  try {
    fn();
    return 'nothing';
  } catch (error) {
    return (error as Error).name;
  }
}

/**
 * Every violation the page has reported so far, once the reports already queued have come: a policy the list does not
 * name is created last, and its own report is awaited (and left out).
 */
async function violationsSettled(win: StrictWindow): Promise<string[]> {
  expect(thrownBy(() => win.trustedTypes!.createPolicy('sentinel', {}))).to.equal('TypeError');
  await waitUntil(() => win.seen.violations.some((v) => v.endsWith(' sentinel')), 'no report of the sentinel policy');
  return win.seen.violations.filter((v) => !v.endsWith(' sentinel'));
}

/** A real click at the middle of an element inside the frame. */
async function clickIn(frame: HTMLIFrameElement, target: Element): Promise<void> {
  const outer = frame.getBoundingClientRect();
  const inner = target.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [
      Math.round(outer.left + inner.left + inner.width / 2),
      Math.round(outer.top + inner.top + inner.height / 2),
    ],
  });
  await resetMouse();
}

const enforcesTrustedTypes = 'trustedTypes' in window;
const trustedTypesOnly = enforcesTrustedTypes ? describe : describe.skip;

describe('<connect-provider> on a page under the documented strict CSP and Trusted Types', () => {
  let frame: HTMLIFrameElement | undefined;
  const popups: Window[] = [];
  afterEach(() => {
    frame?.remove();
    frame = undefined;
    for (const popup of popups.splice(0)) if (!popup.closed) popup.close();
  });

  it('should define, render styled and connect to a working connection, with no violation reported', async () => {
    signInFreshGroup();
    const page = await strictPage('policy=documented');
    frame = page.frame;
    const { win } = page;
    await waitUntil(() => win.customElements.get('connect-provider'), 'the tag was not defined', { timeout: 8000 });
    const el = win.document.querySelector('connect-provider') as ConnectProvider;
    await el.updateComplete;
    const button = el.shadowRoot!.querySelector<HTMLButtonElement>('[part=button]')!;
    // As a person would click: once the element has read that there is no connection yet (connect-src).
    await waitUntil(
      () => el.getAttribute('connection-status') === 'none' && button.getAttribute('aria-busy') !== 'true',
      'the element did not read its connection',
      { timeout: 6000 },
    );
    expect(button.textContent).to.include('Salesforce');
    // Its styles (adopted style sheets) apply under style-src 'self', with no inline style allowed.
    expect(win.getComputedStyle(el).display).to.equal('inline-block');

    const real = win.open;
    win.open = ((...args: Parameters<Window['open']>) => {
      const popup = real.apply(win, args);
      if (popup) popups.push(popup);
      return popup;
    }) as Window['open'];
    let ended = '';
    for (const type of ['connect-success', 'connect-error', 'connect-cancel'])
      el.addEventListener(type, () => (ended ||= type));
    await clickIn(frame, button);
    await waitUntil(() => popups.length > 0, 'no popup opened', { timeout: 6000 });
    await answerConsent(popups[0]!, 'allow');
    await waitUntil(() => ended, 'the flow did not end', { timeout: 10000 });
    expect(ended).to.equal('connect-success');
    expect(el.connection?.status).to.equal('working');
    expect(el.getAttribute('connection-status')).to.equal('working');

    expect(win.seen.violations, 'CSP violations').to.deep.equal([]);
    expect(win.seen.errors, 'errors on the page').to.deep.equal([]);
  });

  trustedTypesOnly(
    `where the browser enforces Trusted Types${enforcesTrustedTypes ? '' : ' (skipped: this browser has no window.trustedTypes)'}`,
    () => {
      it('should refuse HTML from a string and a policy the list does not name, on that page', async () => {
        const page = await strictPage('policy=documented');
        frame = page.frame;
        const { win } = page;
        await waitUntil(() => win.customElements.get('connect-provider'), 'the tag was not defined');
        // So the element rendered through the policy the list names: the page takes no string as HTML.
        const div = win.document.createElement('div');
        expect(thrownBy(() => (div.innerHTML = '<b>text</b>'))).to.equal('TypeError');
        expect(div.innerHTML).to.equal('');
        expect(thrownBy(() => win.trustedTypes!.createPolicy('not-listed', {}))).to.equal('TypeError');
      });

      it('should never define the tag when the list leaves out lit-html, and report the refused lit-html policy', async () => {
        const page = await strictPage('policy=without-lit-html');
        frame = page.frame;
        const { win } = page;
        // Booleans: chai would describe the frame's objects at length.
        expect(!!win.customElements.get('connect-provider'), 'the tag is defined').to.equal(false);
        const el = win.document.querySelector('connect-provider')!;
        expect(!!el.shadowRoot, 'the element rendered').to.equal(false);
        expect(el.textContent).to.equal('');
        expect(await litHtmlRefused(win)).to.have.length(1);
        expect(win.seen.errors, 'the error lit-html throws at load').to.have.length(1);
      });

      it("should need 'allow-duplicates' when Lit loads twice: without it the second copy throws at load", async () => {
        const twice = await strictPage('policy=documented&copies=2');
        frame = twice.frame;
        await waitUntil(() => twice.win.customElements.get('connect-provider'), 'the first copy defines the tag');
        expect(await litHtmlRefused(twice.win)).to.have.length(1);
        expect(twice.win.seen.errors, 'the error the second lit-html throws at load').to.have.length(1);
        frame.remove();

        const allowed = await strictPage('policy=documented&copies=2&duplicates');
        frame = allowed.frame;
        await waitUntil(() => allowed.win.customElements.get('connect-provider'), 'the tag was not defined');
        expect(await violationsSettled(allowed.win)).to.deep.equal([]);
        expect(allowed.win.seen.errors).to.deep.equal([]);
      });
    },
  );
});
