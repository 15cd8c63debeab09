// Internal: the link way's block, a chunk loaded only when a flow takes the link way (link-way.ts imports it), so
// the main entry carries none of it: the consent link as selectable text, Copy (the Clipboard API, else the text
// selected), Stop waiting, what the copy did (announced), and the QR code of the link. Plain DOM, no lit: the
// chunk stands alone in the self-contained bundle too. The link lives only here, in the shadow DOM (text, never an
// attribute but the QR code's path).
import type { ReactiveElement } from 'lit';
import { qrPath } from './qr.js';
import type { ConnectStrings } from './strings.js';

/**
 * The block's own look: on their own lines, the link wrapped anywhere (a 320 px column), the QR code on white; Copy
 * starts its line, at the edge of the text above it (the element's other controls stand beside a button).
 */
const STYLE = `.link-way,[part=link],[part=qr]{display:block;margin-top:.5em}
.link-way [part=copy]{margin-inline-start:0}
[part=link]{font:.875em ui-monospace,monospace;-webkit-user-select:all;user-select:all}`;

const SVG = 'http://www.w3.org/2000/svg';

function make<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  parent?: Element,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  parent?.append(node);
  return node;
}

function svg(tag: string, attributes: Record<string, string | number>, parent?: Element): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  parent?.append(node);
  return node;
}

/** A button as the element's controls are (parts.ts, renderControl). */
const control = (part: string, parent: Element, onClick: () => void) => {
  const button = make(
    'button',
    { part, type: 'button', 'aria-disabled': 'false', 'aria-describedby': 'status' },
    parent,
  );
  button.addEventListener('click', onClick);
  return button;
};

export class LinkBlock {
  readonly node: HTMLElement;
  #link: HTMLElement;
  #copy: HTMLButtonElement;
  #stop: HTMLButtonElement;
  #said: HTMLElement;
  #qr: SVGElement;
  /** What the copy did, until the next link. */
  #saidKey?: keyof ConnectStrings;
  #text?: (key: keyof ConnectStrings) => string;

  constructor(host: ReactiveElement, url: string, stop: () => void) {
    const block = (this.node = make('div', {
      class: 'link-way',
      tabindex: '-1',
      role: 'group',
      'aria-labelledby': 'status',
    }));
    make('style', {}, block).textContent = STYLE;
    this.#link = make('span', { part: 'link', id: 'link', dir: 'ltr' }, block);
    this.#link.textContent = url;
    this.#copy = control('copy', block, () => void this.#copyLink(url));
    this.#stop = control('stop', block, stop);
    this.#said = make('span', { role: 'status' }, block);
    // Level M at least and a 4-module quiet zone (qr.ts), drawn at 160 px: dark on its own white in any scheme.
    const { side, d } = qrPath(url);
    this.#qr = svg('svg', {
      part: 'qr',
      role: 'img',
      'aria-describedby': 'link',
      viewBox: `0 0 ${side} ${side}`,
      width: 160,
      height: 160,
      'shape-rendering': 'crispEdges',
    });
    svg('rect', { width: side, height: side, fill: '#fff' }, this.#qr);
    svg('path', { d, fill: '#000' }, this.#qr);
    block.append(this.#qr);
    // Shown by the update this block asks for: then the focus moves to it, for keyboard and screen-reader users.
    void Promise.resolve()
      .then(() => host.updateComplete)
      .then(() => block.focus());
  }

  async #copyLink(url: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(url);
      this.#saidKey = 'copied';
    } catch {
      // No clipboard here (a frame without the permission, an engine that refuses): the text is selected instead.
      getSelection()?.selectAllChildren(this.#link);
      this.#saidKey = 'copySelected';
    }
    this.#say();
  }

  #say(): void {
    const text = this.#text!;
    this.#copy.textContent = text('copyLink');
    this.#stop.textContent = text('stopWaiting');
    this.#said.textContent = this.#saidKey ? text(this.#saidKey) : '';
    this.#qr.setAttribute('aria-label', text('qrLabel'));
  }

  /** The block with its texts as the element says them now (its language, the provider's name). */
  render(text: (key: keyof ConnectStrings) => string): HTMLElement {
    this.#text = text;
    this.#say();
    return this.node;
  }
}
