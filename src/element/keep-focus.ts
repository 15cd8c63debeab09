// Internal: a control that disappears on its own (fallback, stop, confirm) takes the focus with it, to the page's
// body; this controller gives it to the element's main button instead, so a keyboard user stays where they were.
import type { ReactiveController, ReactiveElement } from 'lit';

export class KeepFocus implements ReactiveController {
  #host: ReactiveElement;
  /** The shadow element that had the focus before an update. */
  #before?: Element | null;

  constructor(host: ReactiveElement) {
    (this.#host = host).addController(this);
  }

  hostUpdate(): void {
    this.#before = this.#host.shadowRoot?.activeElement;
  }

  hostUpdated(): void {
    if (this.#before && !this.#before.isConnected)
      this.#host.shadowRoot?.querySelector<HTMLElement>('[part=button]')?.focus();
    this.#before = undefined;
  }
}
