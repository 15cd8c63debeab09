// Internal: a flow's own popup window: opened inside the click, centred on
// the opener, told what is happening while the URL is fetched, sent to the
// URL, and watched until it reads closed (docs/choices.md). A window name of
// one flow only: two flows never share, reuse or close each other's popup.
import type { LinkReason } from './events.js';
import type { Lifetime } from './lifetime.js';
import { CLOSED_CHECK } from './timing.js';

let popups = 0;

/**
 * Why no window can open here, when the page can tell before trying (docs/element.md, "Iframes and popup policies"):
 * the element's own frame is an iframe sandboxed without allow-popups (readable when the frame is same-origin with its
 * parent), or the browser is an Android WebView (the `; wv)` its user agent carries by Android's documented format).
 */
export function noWindowHere(): LinkReason | undefined {
  const sandbox = (frameElement as HTMLIFrameElement | null)?.sandbox;
  if (sandbox?.length && !sandbox.contains('allow-popups')) return 'sandboxed';
  return /; wv\)/.test(navigator.userAgent) ? 'webview' : undefined;
}

export interface PopupSize {
  width: number;
  height: number;
}

export class Popup {
  readonly name = `connect-provider-${++popups}-${Math.random().toString(36).slice(2)}`;
  #window?: Window | null;
  #lifetime: Lifetime;
  #size: PopupSize;

  constructor(lifetime: Lifetime, size: PopupSize) {
    this.#lifetime = lifetime;
    this.#size = size;
    lifetime.onEnd(() => this.#close());
  }

  /** Whether the browser gave a window (none when blocked). */
  get opened(): boolean {
    return !!this.#window;
  }

  /** Whether `source` (a message's) is this popup. */
  isSource(source: MessageEventSource | null): boolean {
    return !!this.#window && source === this.#window;
  }

  /** Opens the window at `url` (inside a click); false when the browser opens none. */
  open(url: string): boolean {
    const { width, height } = this.#size;
    const left = Math.round(screenX + (outerWidth - width) / 2);
    const top = Math.round(screenY + (outerHeight - height) / 2);
    try {
      this.#window = open(url, this.name, `popup,width=${width},height=${height},left=${left},top=${top}`);
    } catch {
      // refused with an exception (a sandboxed frame): none
      this.#window = null;
    }
    return this.opened;
  }

  /** Opens a blank window that says `text` while the backend answers (as text, never HTML). */
  openBlank(text: string): void {
    if (!this.open('about:blank')) return;
    try {
      const doc = this.#window!.document;
      doc.title = text;
      doc.body.textContent = text;
      doc.body.style.cssText = 'margin:45vh 1em;text-align:center;font:1.125rem system-ui;color:#374151';
    } catch {
      // not same-origin any more: nothing to write
    }
  }

  /** Whether there is a window and it reads closed (a severed one reads closed too). A blocked popup is none. */
  get closed(): boolean {
    try {
      return !!this.#window && this.#window.closed;
    } catch {
      return true;
    }
  }

  /** Sends the open window to `url`. */
  navigate(url: string): void {
    try {
      this.#window?.location.replace(url);
    } catch {
      // closed this very moment: the watch sees it
    }
  }

  /** Checks the window every CLOSED_CHECK ms while `watching()`; calls `onClosed` once it reads closed. */
  watch(watching: () => boolean, onClosed: () => void): void {
    const check = () => {
      if (!watching()) return;
      if (this.closed) onClosed();
      else this.#lifetime.setTimer(check, CLOSED_CHECK);
    };
    this.#lifetime.setTimer(check, CLOSED_CHECK);
  }

  #close(): void {
    try {
      if (this.#window && !this.#window.closed) this.#window.close();
    } catch {
      // a severed popup cannot be closed from here
    }
  }
}
