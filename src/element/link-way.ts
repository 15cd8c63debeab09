// Internal: the link way's place in the element. Its block (link-block.ts, with the QR encoder) is a chunk loaded
// only when a flow takes the link way, so the main entry carries this loader alone.
import { nothing, type ReactiveElement } from 'lit';
import type { LinkBlock } from './link-block.js';
import type { ConnectStrings } from './strings.js';

export class LinkWay {
  #host: ReactiveElement;
  #url?: string;
  #block?: LinkBlock;

  constructor(host: ReactiveElement) {
    this.#host = host;
  }

  /** The block of `url` once loaded (nothing until then), its texts from `text`; `stop` ends the wait. */
  render(url: string, text: (key: keyof ConnectStrings) => string, stop: () => void): HTMLElement | typeof nothing {
    if (url !== this.#url) {
      this.#url = url;
      this.#block = undefined;
      void import('./link-block.js').then(({ LinkBlock }) => {
        if (this.#url !== url) return;
        this.#block = new LinkBlock(this.#host, url, stop);
        this.#host.requestUpdate();
      });
    }
    return this.#block?.render(text) ?? nothing;
  }
}
