// The link way: in an iframe sandboxed without allow-popups no window can open, so the element shows the consent
// link (text, Copy, QR code) in the click, keeps `authorizing`, and waits as for a severed popup: the consent answered
// elsewhere (the link fetched from this page, or the emulator's decide helper) ends the flow on its own. In a frame that
// inherits its sandbox (not seen before trying), the popup reads blocked and the fallback's click takes the link way.
// A link whose flow timed out is renewed by one click: a new oauth-connect, no window tried.
import { expect, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys, sendMouse } from '@web/test-runner-commands';
import type { ConnectProvider } from '../../src/index.js';
import { decide, ready, seedConnection, signInFreshGroup } from './helpers.js';

type FrameWindow = Window & typeof globalThis & { axe: typeof import('axe-core') };
type Decoder = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

const TERMINAL = ['connect-success', 'connect-error', 'connect-cancel'];

/** jsQR's browser build (UMD) sets window.jsQR when loaded as a classic script. */
async function jsQR(): Promise<Decoder> {
  const held = window as unknown as { jsQR?: Decoder };
  if (!held.jsQR)
    await new Promise((resolve, reject) => {
      const script = Object.assign(document.createElement('script'), { src: '/node_modules/jsqr/dist/jsQR.js' });
      script.onload = resolve;
      script.onerror = reject;
      document.head.append(script);
    });
  return held.jsQR!;
}

/** What a phone's camera sees: the SVG drawn at its 160 px on a canvas, decoded. */
async function decodeQr(svg: SVGSVGElement): Promise<string | undefined> {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
  await image.decode();
  const canvas = Object.assign(document.createElement('canvas'), { width: 160, height: 160 });
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0, 160, 160);
  const { data } = context.getImageData(0, 0, 160, 160);
  return (await jsQR())(data, 160, 160)?.data;
}

/** A request the element's frame made: what it sent, and what the backend answered. */
interface Sent {
  method: string;
  url: string;
  body: string;
  answer: string;
}

interface Framed {
  /** The frames from this page's down to the element's: the first is removed after the test. */
  frames: HTMLIFrameElement[];
  win: FrameWindow;
  el: ConnectProvider;
  events: { type: string; detail: Record<string, unknown> }[];
  logged: string[];
  /** Every fetch of the element's frame, from just after the element loaded. */
  sent: Sent[];
}

interface FrameOptions {
  dark?: boolean;
  /**
   * The element's frame has no sandbox attribute of its own but sits in a frame sandboxed without allow-popups, so it
   * inherits the sandbox unseen: the popup is tried, reads blocked, and the fallback's click opens nothing.
   */
  inherited?: boolean;
}

const SANDBOX = 'allow-scripts allow-same-origin';

/** A frame of `parent`'s document at its top left, loaded with `html`. */
async function frameIn(parent: Document, html: string, sandbox?: string): Promise<HTMLIFrameElement> {
  const frame = parent.createElement('iframe');
  if (sandbox) frame.setAttribute('sandbox', sandbox);
  frame.style.cssText = 'position:fixed;left:0;top:0;width:360px;height:560px;border:0';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.srcdoc = html;
  parent.body.append(frame);
  await loaded;
  return frame;
}

/**
 * The element (the self-contained bundle) in an iframe sandboxed without allow-popups (its own sandbox, or one it
 * inherits), its events, console and fetches recorded.
 */
async function framed(attributes = '', { dark = false, inherited = false }: FrameOptions = {}): Promise<Framed> {
  const style = dark ? '<style>:root{color-scheme:dark;background:#111827;color:#f9fafb}</style>' : '';
  const page = `<!doctype html><html lang="en"><title>link way</title>${style}
    <script src="${location.origin}/node_modules/axe-core/axe.min.js"></script>
    <script type="module" src="${location.origin}/dist/connect-provider.js"></script>
    <main><connect-provider endpoint="${location.origin}/api/connect" provider="slack" ${attributes}></connect-provider></main>`;
  const frames = inherited
    ? [await frameIn(document, '<!doctype html><title>outer</title><body style="margin:0">', SANDBOX)]
    : [];
  frames.push(await frameIn(frames[0]?.contentDocument ?? document, page, inherited ? undefined : SANDBOX));
  const win = frames.at(-1)!.contentWindow as FrameWindow;
  await waitUntil(() => win.customElements?.get('connect-provider'), 'the element did not load in the frame', {
    timeout: 8000,
  });
  const el = win.document.querySelector('connect-provider') as ConnectProvider;
  await ready(el);
  const logged: string[] = [];
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
    win.console[level] = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
  // The frame's own fetch, called through: the element's requests, their bodies and the backend's answers.
  const sent: Sent[] = [];
  const realFetch = win.fetch.bind(win);
  win.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await realFetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const answer = await response.clone().text();
    sent.push({ method: init?.method ?? 'GET', url, body: String(init?.body ?? ''), answer });
    return response;
  };
  const events: Framed['events'] = [];
  for (const type of ['connect-start', 'connect-link', 'connect-popup', 'connect-popup-blocked', ...TERMINAL])
    el.addEventListener(type, (e) => events.push({ type, detail: (e as CustomEvent).detail }));
  return { frames, win, el, events, logged, sent };
}

/** A real click in the middle of an element inside the frames (each placed in its parent's top left). */
async function clickIn(frames: HTMLIFrameElement[], target: Element): Promise<void> {
  let left = 0;
  let top = 0;
  for (const frame of frames) {
    const box = frame.getBoundingClientRect();
    left += box.left;
    top += box.top;
  }
  const inner = target.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [Math.round(left + inner.left + inner.width / 2), Math.round(top + inner.top + inner.height / 2)],
  });
  await sendMouse({ type: 'move', position: [0, 0] });
}

const part = (el: ConnectProvider, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part=${name}]`);

/**
 * Clicks Connect (then, where the popup reads blocked, the fallback); resolves with the link the element shows, once a
 * new connect-link came and the QR code of that link is drawn.
 */
async function takeLinkWay({ frames, el, events }: Framed): Promise<string> {
  const links = () => events.filter((e) => e.type === 'connect-link');
  const before = links().length;
  await clickIn(frames, part(el, 'button')!);
  await waitUntil(
    () => links().length > before || part(el, 'fallback'),
    `no connect-link: ${events.map((e) => e.type)}`,
    { timeout: 8000 },
  );
  if (links().length === before) await clickIn(frames, part(el, 'fallback')!);
  await waitUntil(() => links().length > before, `no connect-link: ${events.map((e) => e.type)}`, { timeout: 8000 });
  const url = links().at(-1)!.detail.url;
  await waitUntil(() => part(el, 'qr') && part(el, 'link')!.textContent === url, 'no QR code', { timeout: 5000 });
  return part(el, 'link')!.textContent!;
}

/** What the clipboard holds, pasted by the keyboard into a field of this page (reading it needs a permission). */
async function pasted(): Promise<string> {
  const field = document.createElement('textarea');
  document.body.append(field);
  field.focus();
  try {
    const modifier = navigator.platform.startsWith('Mac') ? 'Meta' : 'Control';
    await sendKeys({ down: modifier });
    await sendKeys({ press: 'v' });
    await sendKeys({ up: modifier });
    return field.value;
  } finally {
    field.remove();
  }
}

const terminals = (events: Framed['events']) => events.filter((e) => TERMINAL.includes(e.type));

/** The flow's terminal events, once the `count`th came and a second to it had the time to come too. */
async function settled({ events }: Framed, count = 1): Promise<Framed['events']> {
  await waitUntil(() => terminals(events).length >= count, `no terminal event: ${events.map((e) => e.type)}`, {
    timeout: 10000,
  });
  await new Promise((r) => setTimeout(r, 300));
  return terminals(events);
}

/**
 * The link appears nowhere but the event, the shadow DOM's text and the backend's answer: no console message, attribute
 * (shadow DOM too), storage, request (its address or body) or resource the frame loaded.
 */
function expectKeptSecret({ win, logged, sent }: Framed, link: string): void {
  expect(logged.filter((m) => m.includes(link))).to.deep.equal([]);
  expect(sent.filter((r) => r.url.includes(link) || r.body.includes(link))).to.deep.equal([]);
  const loaded = win.performance.getEntriesByType('resource').map((entry) => entry.name);
  expect(loaded.filter((url) => url.includes(link))).to.deep.equal([]);
  const { document } = win;
  const shadow = [...document.querySelectorAll('*')].flatMap((e) => [...(e.shadowRoot?.querySelectorAll('*') ?? [])]);
  for (const node of [document.documentElement, ...document.querySelectorAll('*'), ...shadow])
    for (const { name, value } of node.attributes) expect(value, name).not.to.include(link);
  for (const storage of [win.localStorage, win.sessionStorage])
    for (let i = 0; i < storage.length; i++) expect(storage.getItem(storage.key(i)!)).not.to.include(link);
}

/** Answers the consent by its link, from this page (another document than the element's): what a phone would do. */
async function allowByLink(link: string): Promise<void> {
  const page = await fetch(link);
  expect(page.ok, 'the link opens the consent page').to.equal(true);
  const answer = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=allow',
  });
  expect(answer.status).to.be.below(400);
}

describe('<connect-provider> link way, in a sandboxed iframe without allow-popups', () => {
  let current: Framed | undefined;
  afterEach(() => current?.frames[0].remove());

  it('should show the link and a QR code of it, and end connect-success once the link is allowed', async () => {
    signInFreshGroup();
    const f = (current = await framed());
    const link = await takeLinkWay(f);
    const linkEvent = f.events.find((e) => e.type === 'connect-link')!;
    expect(linkEvent.detail).to.deep.equal({ url: link, reason: 'sandboxed', provider: 'slack' });
    // Known before trying: no doomed window, no fallback button.
    expect(f.events.map((e) => e.type)).to.deep.equal(['connect-start', 'connect-link']);
    expect(f.el.state).to.equal('authorizing');
    expect(f.el.getAttribute('state')).to.equal('authorizing');
    expect(await decodeQr(part(f.el, 'qr') as unknown as SVGSVGElement)).to.equal(link);
    expect(part(f.el, 'status')!.textContent).to.equal('Open this link in your browser to connect Slack.');
    // The link is the backend's oauth-connect answer, asked for once.
    const asked = f.sent.filter((r) => r.method === 'POST' && r.url.endsWith('/oauth-connect'));
    expect(asked.map((r) => JSON.parse(r.answer).url)).to.deep.equal([link]);
    expectKeptSecret(f, link);
    await allowByLink(link);
    expect((await settled(f)).map((e) => e.type)).to.deep.equal(['connect-success']);
    const { connection } = terminals(f.events)[0].detail as { connection: { status: string } };
    expect(connection.status).to.equal('working');
    expect(f.el.held).to.equal(0);
    await f.el.updateComplete;
    expect(part(f.el, 'link')).to.equal(null);
    expectKeptSecret(f, link);
  }).timeout(30000);

  it("should show the link when the fallback's click opens nothing either, in a frame that inherits its sandbox", async () => {
    signInFreshGroup();
    const f = (current = await framed('', { inherited: true }));
    const link = await takeLinkWay(f);
    // Not seen before trying: the popup read blocked, and the fallback's real click opened none.
    expect(f.events.map((e) => e.type)).to.deep.equal(['connect-start', 'connect-popup-blocked', 'connect-link']);
    expect(f.events.at(-1)!.detail).to.deep.equal({ url: link, reason: 'blocked', provider: 'slack' });
    expect(f.el.state).to.equal('authorizing');
    expect(part(f.el, 'fallback')).to.equal(null);
    expect(await decodeQr(part(f.el, 'qr') as unknown as SVGSVGElement)).to.equal(link);
    expectKeptSecret(f, link);
    await allowByLink(link);
    expect((await settled(f)).map((e) => e.type)).to.deep.equal(['connect-success']);
    expect(f.el.held).to.equal(0);
    expectKeptSecret(f, link);
  }).timeout(30000);

  it('should renew a link whose flow timed out by one click: a new oauth-connect, no window tried', async () => {
    signInFreshGroup();
    const f = (current = await framed('timeout="3000"', { inherited: true }));
    const expired = await takeLinkWay(f);
    expect((await settled(f)).map((e) => [e.type, e.detail.code])).to.deep.equal([['connect-error', 'timeout']]);
    expect(f.el.held).to.equal(0);
    await f.el.updateComplete;
    // The expired link is shown no more; the focus, which was on its block, is on the button that asks for a new one.
    expect(part(f.el, 'link')).to.equal(null);
    expect(part(f.el, 'qr')).to.equal(null);
    expect(f.el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('button');
    f.el.timeout = 30000;
    const before = f.events.length;
    await clickIn(f.frames, part(f.el, 'button')!);
    await waitUntil(() => part(f.el, 'qr'), 'no new link', { timeout: 8000 });
    const renewed = part(f.el, 'link')!.textContent!;
    // One click: no popup tried, no fallback; the new link is the answer of a second oauth-connect.
    expect(f.events.slice(before).map((e) => e.type)).to.deep.equal(['connect-start', 'connect-link']);
    expect(f.events.at(-1)!.detail).to.deep.equal({ url: renewed, reason: 'blocked', provider: 'slack' });
    const asked = f.sent.filter((r) => r.method === 'POST' && r.url.endsWith('/oauth-connect'));
    expect(asked.map((r) => JSON.parse(r.answer).url)).to.deep.equal([expired, renewed]);
    expect(renewed).not.to.equal(expired);
    expect(await decodeQr(part(f.el, 'qr') as unknown as SVGSVGElement)).to.equal(renewed);
    expectKeptSecret(f, renewed);
    await allowByLink(renewed);
    expect((await settled(f, 2)).map((e) => e.type)).to.deep.equal(['connect-error', 'connect-success']);
    expect(f.el.held).to.equal(0);
  }).timeout(30000);

  it('should reconnect (update) the same connection through the link', async () => {
    const group = signInFreshGroup();
    const id = await seedConnection(group, 'slack', 'allow');
    const f = (current = await framed(`connection-id="${id}"`));
    const link = await takeLinkWay(f);
    // The link is the backend's oauth-update answer for this connection.
    const asked = f.sent.filter((r) => r.method === 'PATCH' && r.url.endsWith(`/connections/${id}:oauth-update`));
    expect(asked.map((r) => JSON.parse(r.answer).url)).to.deep.equal([link]);
    await allowByLink(link);
    expect((await settled(f)).map((e) => e.type)).to.deep.equal(['connect-success']);
    expect((terminals(f.events)[0].detail as { connection: { id: string } }).connection.id).to.equal(id);
    expect(f.el.held).to.equal(0);
  }).timeout(30000);

  it('should end bad_credentials when the provider refuses the sign-in made through the link', async () => {
    const group = signInFreshGroup();
    const f = (current = await framed());
    await takeLinkWay(f);
    expect((await decide(group, 'allow_bad_credentials')).status).to.be.below(400);
    expect((await settled(f)).map((e) => [e.type, e.detail.code])).to.deep.equal([
      ['connect-error', 'bad_credentials'],
    ]);
    expect(f.el.held).to.equal(0);
  }).timeout(30000);

  it('should keep waiting after a Deny elsewhere (the element cannot see it) and end at its timeout', async () => {
    const group = signInFreshGroup();
    const f = (current = await framed('timeout="4000"'));
    await takeLinkWay(f);
    await decide(group, 'deny');
    expect((await settled(f)).map((e) => [e.type, e.detail.code])).to.deep.equal([['connect-error', 'timeout']]);
    expect(f.el.held).to.equal(0);
  }).timeout(30000);

  it('should end connect-cancel on Stop waiting, holding nothing', async () => {
    signInFreshGroup();
    const f = (current = await framed());
    await takeLinkWay(f);
    await clickIn(f.frames, part(f.el, 'stop')!);
    expect((await settled(f)).map((e) => [e.type, e.detail.reason])).to.deep.equal([['connect-cancel', 'cancelled']]);
    expect(f.el.held).to.equal(0);
  }).timeout(30000);

  it('should copy the link to the clipboard (Chromium), or select it where the engine refuses, and say which', async () => {
    signInFreshGroup();
    const f = (current = await framed());
    const written: string[] = [];
    const clipboard = f.win.navigator.clipboard;
    if (clipboard) {
      const write = clipboard.writeText.bind(clipboard);
      clipboard.writeText = (text: string) => write(text).then(() => void written.push(text));
    }
    const link = await takeLinkWay(f);
    await clickIn(f.frames, part(f.el, 'copy')!);
    const said = () => f.el.shadowRoot!.querySelector('.link-way [role=status]')!.textContent;
    await waitUntil(() => said(), 'nothing said after Copy', { timeout: 3000 });
    // Chromium grants a click in a same-origin frame the clipboard: there it must be copied, not selected.
    if (/Chrome\//.test(navigator.userAgent)) expect(said()).to.equal('Copied');
    if (said() === 'Copied') {
      // Pasted back by the keyboard where the driver can hold a modifier (Chromium, Firefox); WebKit's WebDriver cannot,
      // and its clipboard is read only through a menu: there, the clipboard's own write is what was copied.
      const text = await pasted().catch(() => undefined);
      expect(text ?? written.at(-1)).to.equal(link);
    } else {
      expect(said()).to.equal('The link is selected: copy it with your keyboard or menu.');
      expect(f.win.getSelection()!.toString()).to.equal(link);
    }
    f.el.cancel();
  }).timeout(30000);

  it('should select the link and say so when the browser refuses the clipboard', async () => {
    signInFreshGroup();
    const f = (current = await framed());
    // The browser's answer in a frame without the clipboard's permission, in every engine.
    const clipboard = f.win.navigator.clipboard;
    if (clipboard)
      clipboard.writeText = () => Promise.reject(new f.win.DOMException('Write permission denied.', 'NotAllowedError'));
    const link = await takeLinkWay(f);
    await clickIn(f.frames, part(f.el, 'copy')!);
    const said = () => f.el.shadowRoot!.querySelector('.link-way [role=status]')!.textContent;
    await waitUntil(() => said(), 'nothing said after Copy', { timeout: 3000 });
    expect(said()).to.equal('The link is selected: copy it with your keyboard or menu.');
    expect(f.win.getSelection()!.toString()).to.equal(link);
    f.el.cancel();
  }).timeout(30000);

  it('should move the focus to the link block, reach Copy and Stop by keyboard, and pass axe', async () => {
    signInFreshGroup();
    const f = (current = await framed());
    part(f.el, 'button')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => part(f.el, 'qr'), 'no QR code', { timeout: 8000 });
    expect(f.el.shadowRoot!.activeElement?.className).to.equal('link-way');
    const reached: (string | null)[] = [];
    for (let i = 0; i < 2; i++) {
      await sendKeys({ press: 'Tab' });
      reached.push(f.el.shadowRoot!.activeElement?.getAttribute('part') ?? null);
    }
    expect(reached).to.deep.equal(['copy', 'stop']);
    const { violations } = await f.win.axe.run(f.el);
    expect(violations.map((v) => v.id)).to.deep.equal([]);
    f.el.cancel();
  }).timeout(30000);

  it('should fit a 320 px column right to left, the link kept left to right, Copy at the start edge', async () => {
    signInFreshGroup();
    const f = (current = await framed('dir="rtl" style="width:320px"'));
    f.frames[0].style.width = '320px';
    const link = await takeLinkWay(f);
    const block = f.el.shadowRoot!.querySelector<HTMLElement>('.link-way')!;
    for (const node of [block, part(f.el, 'link')!, part(f.el, 'qr')!])
      expect(node.getBoundingClientRect().right, node.getAttribute('part') ?? 'block').to.be.at.most(320);
    const shown = part(f.el, 'link')!;
    expect(shown.scrollWidth, 'the link wraps inside its line').to.be.at.most(shown.clientWidth);
    expect(f.win.getComputedStyle(shown).direction).to.equal('ltr');
    expect(part(f.el, 'link')!.textContent).to.equal(link);
    // Copy starts its line where the text above it starts: on the right, right to left.
    const copy = part(f.el, 'copy')!.getBoundingClientRect().right;
    expect(copy, 'Copy at the start edge').to.be.closeTo(part(f.el, 'status')!.getBoundingClientRect().right, 1);
    f.el.cancel();
  }).timeout(30000);

  it('should pass axe in the link state on a dark page', async () => {
    signInFreshGroup();
    // Where the driver can (Chromium): the media query too; everywhere, the frame's dark color-scheme and colours.
    await emulateMedia({ colorScheme: 'dark' }).catch(() => {});
    try {
      const f = (current = await framed('', { dark: true }));
      await takeLinkWay(f);
      const { violations } = await f.win.axe.run(f.el);
      expect(violations.map((v) => v.id)).to.deep.equal([]);
      f.el.cancel();
    } finally {
      await emulateMedia({ colorScheme: 'light' }).catch(() => {});
    }
  }).timeout(30000);
});
