// Helpers for the element's browser tests: a signed-in user of a fresh group,
// a watch on the element's events and states, and a hand on the real popup.
import { fixture, html, waitUntil } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import type { ConnectProvider } from '../../src/index.js';
import { resetPageReads } from '../../src/element/page-reads.js';

export const TERMINAL = ['connect-success', 'connect-error', 'connect-cancel'] as const;
const EVENTS = [
  'connect-start',
  'connect-popup',
  'connect-popup-blocked',
  'connect-connection',
  'connect-status',
  ...TERMINAL,
] as const;

let counter = 0;

/** Signs the page in as a user of a new group, so each test has connections of its own. */
export function signInFreshGroup(): string {
  const group = `g${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  document.cookie = `sid=${group}; path=/`;
  return group;
}

export function signInAs(sid: string): void {
  document.cookie = `sid=${sid}; path=/`;
}

export interface Recorded {
  type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the details of every event type, read loosely by tests
  detail: any;
}

/** Records every event and every state the element goes through. */
export function watch(el: ConnectProvider) {
  const events: Recorded[] = [];
  const states: string[] = [el.getAttribute('state') ?? el.state];
  for (const type of EVENTS) el.addEventListener(type, (e) => events.push({ type, detail: (e as CustomEvent).detail }));
  const observer = new MutationObserver(() => {
    const state = el.getAttribute('state')!;
    if (states[states.length - 1] !== state) states.push(state);
  });
  observer.observe(el, { attributes: true, attributeFilter: ['state'] });
  let resolveEnd!: (e: Recorded) => void;
  const ended = new Promise<Recorded>((r) => (resolveEnd = r));
  for (const type of TERMINAL)
    el.addEventListener(type, (e) => resolveEnd({ type, detail: (e as CustomEvent).detail }));
  return {
    events,
    states,
    types: () => events.map((e) => e.type),
    terminals: () => events.filter((e) => (TERMINAL as readonly string[]).includes(e.type)),
    /** Resolves with the first terminal event. */
    ended,
    stop: () => observer.disconnect(),
  };
}

/** Observes window.open (calls the real one) to get hold of the popups the element opens. */
export function capturePopups() {
  const popups: Window[] = [];
  const real = window.open;
  window.open = function (...args: Parameters<typeof window.open>) {
    const popup = real.apply(window, args);
    if (popup) popups.push(popup);
    return popup;
  } as typeof window.open;
  return {
    popups,
    latest: () => popups[popups.length - 1],
    restore: () => {
      window.open = real;
    },
  };
}

export type CapturedPopups = ReturnType<typeof capturePopups>;

/**
 * Registers the hooks most element tests share: before each test, a freshly signed-in group and captured popups
 * (handed to `use`); after it, every popup still open closed and window.open restored.
 */
export function freshSessionEachTest(use?: (session: { group: string; popups: CapturedPopups }) => void): void {
  let popups: CapturedPopups | undefined;
  beforeEach(() => {
    // The page's shared reads start empty: no test sees the connections or providers another one read.
    resetPageReads();
    const group = signInFreshGroup();
    popups = capturePopups();
    use?.({ group, popups });
  });
  afterEach(() => {
    popups?.restore();
    for (const popup of popups?.popups ?? []) if (!popup.closed) popup.close();
  });
}

/** Waits until the (same-origin) popup shows the consent page, and clicks a button. */
export async function answerConsent(
  popup: Window,
  decision: 'allow' | 'allow_bad_credentials' | 'deny',
): Promise<void> {
  let button: HTMLButtonElement | null | undefined;
  await waitUntil(
    () => {
      if (popup.closed) throw new Error('the popup closed before the consent page showed');
      try {
        button = popup.document?.querySelector<HTMLButtonElement>(`button[value="${decision}"]`);
        return !!button && popup.document.readyState === 'complete';
      } catch {
        return false; // between documents
      }
    },
    `no ${decision} button appeared in the popup`,
    { timeout: 6000, interval: 20 },
  );
  button!.click();
}

/** A real user's click (the browser grants it the right to open a popup) in the middle of the element's button. */
export async function userClick(el: ConnectProvider, part = 'button'): Promise<void> {
  const target = button(el, part);
  if (!target) throw new Error(`no [part=${part}] to click`);
  // As a person would: once the button no longer shows that the connection is being read (neutral and busy).
  if (part === 'button' && el.state === 'idle') await ready(el);
  // Clicks go to viewport coordinates: a button scrolled out of view by earlier content would be missed.
  target.scrollIntoView({ block: 'center', inline: 'center' });
  const box = target.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)],
  });
  // Away, with no button released again: resetMouse's release of the middle button pastes the primary selection into
  // a focused input on Linux, as a person's middle click would.
  await sendMouse({ type: 'move', position: [0, 0] });
}

/** Waits until the element's button is no longer neutral: its connection was read (or NEUTRAL_FOR passed). */
export async function ready(el: ConnectProvider): Promise<void> {
  await waitUntil(() => button(el)?.getAttribute('aria-busy') !== 'true', 'the button stayed neutral', {
    timeout: 6000,
    interval: 10,
  });
}

/** Waits for the popup the element opens (see capturePopups), and returns it. */
export async function waitPopup(popups: ReturnType<typeof capturePopups>, count = 1): Promise<Window> {
  await waitUntil(() => popups.popups.length >= count, 'no popup opened', { timeout: 6000, interval: 10 });
  return popups.popups[count - 1];
}

/** Waits until the watch saw an event of this type. */
export function waitEvent(w: ReturnType<typeof watch>, type: string, timeout = 8000): Promise<void> {
  return waitUntil(() => w.types().includes(type), `no ${type}; saw ${w.types().join(', ')}`, {
    timeout,
    interval: 10,
  });
}

/** The first terminal event, or a failure naming what was seen when none came in time. */
export async function ended(w: ReturnType<typeof watch>, timeout = 10000): Promise<Recorded> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const none = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no terminal event in ${timeout} ms; saw ${w.types().join(', ')}`)),
      timeout,
    );
  });
  try {
    return await Promise.race([w.ended, none]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the server saw under /observe/{tag}/ (times by the server's clock). */
export async function serverLog(tag: string): Promise<
  Array<{
    method: string;
    path: string;
    headers: Record<string, string>;
    body: string;
    at: number;
    abortedAt?: number;
    answer?: string;
    fault?: number | 'drop';
  }>
> {
  return (await fetch(`/__test__/log?tag=${tag}`)).json();
}

/** A flow's own requests: without the reads at rest (the provider, and the list without `provider`) every element makes. */
export function flowRequests<T extends { method: string; path: string }>(log: T[]): T[] {
  return log.filter((r) => !(r.method === 'GET' && /\/providers\/|\/connections$/.test(r.path)));
}

/**
 * A `<connect-provider>` on the page with its attributes written as markup (`attributes` as in HTML), once its first
 * update is done.
 */
export async function placeElement(endpoint: string, provider: string, attributes = ''): Promise<ConnectProvider> {
  const markup = `<connect-provider endpoint="${endpoint}" provider="${provider}" ${attributes}></connect-provider>`;
  const box = (await fixture(html`<div .innerHTML=${markup}></div>`)) as HTMLElement;
  const el = box.querySelector('connect-provider')!;
  await el.updateComplete;
  return el;
}

/** Makes the observed front of `tag` answer matching requests with a fault (see /__test__/fault in middleware.ts). */
export async function setFault(
  tag: string,
  fault: {
    match: string;
    status?: number;
    html?: boolean;
    drop?: boolean;
    count?: number;
    skip?: number;
    detail?: string;
    type?: string;
    delay?: number;
    retryable?: boolean;
  },
): Promise<void> {
  const query = new URLSearchParams({ tag });
  for (const [key, value] of Object.entries(fault))
    if (value !== undefined) query.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  await fetch(`/__test__/fault?${query}`);
}

/** Clears the faults of `tag`. */
export async function clearFaults(tag: string): Promise<void> {
  await fetch(`/__test__/fault?tag=${tag}`);
}

/**
 * Takes the browser "offline" for the element (the boundary under test): navigator.onLine reads false and every
 * request of `tag` drops its socket, until the returned function brings it back (and fires `online`).
 */
export async function goOffline(tag: string): Promise<() => Promise<void>> {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  dispatchEvent(new Event('offline'));
  await setFault(tag, { match: '.', drop: true, count: 100000 });
  return async () => {
    await clearFaults(tag);
    delete (navigator as { onLine?: boolean }).onLine;
    dispatchEvent(new Event('online'));
  };
}

export const uniqueTag = () => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** Answers the open consent of a group server-side (as the user would in a severed popup). */
export async function decide(group: string, decision: 'allow' | 'allow_bad_credentials' | 'deny' = 'allow') {
  const response = await fetch(`/__test__/decide?group=${group}&decision=${decision}`);
  if (!response.ok) throw new Error(`no open consent for ${group}`);
  return response.json() as Promise<{ status: number; connectionId: string | null }>;
}

/** Seeds a connection of the group through the emulator's consent (not through the element). */
export async function seedConnection(
  group: string,
  provider = 'hubspot',
  decision = 'allow_bad_credentials',
  { consumer, workspace }: { consumer?: string; workspace?: string } = {},
): Promise<string> {
  const query = new URLSearchParams({ group, provider, decision });
  if (consumer) query.set('consumer', consumer);
  if (workspace) query.set('workspace', workspace);
  return (await (await fetch(`/__test__/seed-connection?${query}`)).json()).connectionId;
}

/** The element's shadow button. */
export function button(el: ConnectProvider, part = 'button'): HTMLButtonElement {
  return el.shadowRoot!.querySelector<HTMLButtonElement>(`[part="${part}"]`)!;
}

/** What the status line says. */
export const statusText = (el: ConnectProvider): string =>
  el.shadowRoot!.querySelector('[part=status]')!.textContent ?? '';

/** What the element's current flow still holds (timers, requests, listeners), through the documented test hook. */
export function held(el: ConnectProvider): number {
  return el.held;
}

/** Counts the fetches the page makes (calls the real fetch). */
export function countFetches() {
  const real = window.fetch;
  const calls: string[] = [];
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    calls.push(
      `${init?.method ?? 'GET'} ${typeof input === 'string' ? input : input instanceof URL ? input.href : input.url}`,
    );
    return real.call(window, input, init);
  } as typeof window.fetch;
  return { calls, restore: () => (window.fetch = real) };
}

/** Opens a popup from a real click: the browsers run with their popup blockers on. */
export async function openByClick(url: string, name: string): Promise<Window | null> {
  let popup: Window | null = null;
  const opener = document.createElement('button');
  opener.textContent = 'open';
  opener.style.cssText = 'position:fixed;left:0;top:0;width:80px;height:30px';
  opener.onclick = () => (popup = window.open(url, name, 'width=500,height=600'));
  document.body.append(opener);
  try {
    await sendMouse({ type: 'click', position: [40, 15] });
    await resetMouse();
  } finally {
    opener.remove();
  }
  return popup;
}

/**
 * Records every line of the console (log, info, warn, error) until `restore()`: the place a secret must never reach.
 */
export function recordConsole(): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  const originals = { log: console.log, warn: console.warn, error: console.error, info: console.info };
  for (const name of Object.keys(originals) as Array<keyof typeof originals>)
    console[name] = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  return { lines, restore: () => Object.assign(console, originals) };
}

/** Records console.warn (the boundary under test) while fn runs. */
export async function warnings(fn: () => Promise<void>): Promise<string[]> {
  const real = console.warn;
  const seen: string[] = [];
  console.warn = (...args: unknown[]) => void seen.push(args.join(' '));
  try {
    await fn();
  } finally {
    console.warn = real;
  }
  return seen;
}
