// Helpers for the element's browser tests: a signed-in user of a fresh group,
// a watch on the element's events and states, and a hand on the real popup.
import type { ConnectProvider } from '../../src/index.js';

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
  for (const type of TERMINAL) el.addEventListener(type, (e) => resolveEnd({ type, detail: (e as CustomEvent).detail }));
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the (same-origin) popup shows the consent page, and clicks a button. */
export async function answerConsent(popup: Window, decision: 'allow' | 'allow_bad_credentials' | 'deny'): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const button = popup.document?.querySelector<HTMLButtonElement>(`button[value="${decision}"]`);
      if (button && popup.document.readyState === 'complete') {
        button.click();
        return;
      }
    } catch {
      // between documents
    }
    if (popup.closed) throw new Error('the popup closed before the consent page showed');
    await sleep(20);
  }
  throw new Error(`no ${decision} button appeared in the popup`);
}

/** The element's shadow button. */
export function button(el: ConnectProvider, part = 'button'): HTMLButtonElement {
  return el.shadowRoot!.querySelector<HTMLButtonElement>(`[part="${part}"]`)!;
}

/** What the element's running flow still holds (timers, requests, listeners). */
export function held(el: ConnectProvider): number {
  return (el as unknown as { flow?: { held: number } }).flow?.held ?? 0;
}

/** Counts the fetches the page makes (calls the real fetch). */
export function countFetches() {
  const real = window.fetch;
  const calls: string[] = [];
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    calls.push(`${init?.method ?? 'GET'} ${typeof input === 'string' ? input : input instanceof URL ? input.href : input.url}`);
    return real.call(window, input, init);
  } as typeof window.fetch;
  return { calls, restore: () => (window.fetch = real) };
}
