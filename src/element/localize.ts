// Internal: the language controller both tags use, as Shoelace's LocalizeController. At each update it finds the pack
// of the `lang` that applies to its element (locales.ts); a pack that registers or a `lang` that changes anywhere in
// the page updates the element again. A text is the host's own `strings`, else the pack's, else English.
import type { ReactiveController, ReactiveElement } from 'lit';
import type { BrowserProvider } from '../shared/provider.js';
import { langOf, localeFor, onLocaleChange, type LocaleStrings } from './locales.js';

/** The provider as the user reads it: its displayName once known, else its name with a capital. */
export const displayNameOf = (provider: string, info?: Pick<BrowserProvider, 'displayName'> | null): string =>
  info?.displayName || (provider ? provider[0].toUpperCase() + provider.slice(1) : '');

export class Localize<Key extends keyof LocaleStrings> implements ReactiveController {
  #host: ReactiveElement & { strings?: Partial<Record<Key, string>> };
  #english: Record<Key, string>;
  /** The registered pack for the element's language, found at each update. */
  #pack?: Partial<LocaleStrings>;
  #stop?: () => void;

  constructor(host: ReactiveElement & { strings?: Partial<Record<Key, string>> }, english: Record<Key, string>) {
    (this.#host = host).addController(this);
    this.#english = english;
  }

  hostConnected(): void {
    this.#stop = onLocaleChange(() => this.#host.requestUpdate());
  }

  hostDisconnected(): void {
    this.#stop?.();
  }

  hostUpdate(): void {
    this.#pack = localeFor(langOf(this.#host));
  }

  /**
   * A user-facing text with each `{name}` placeholder given in `values` filled in. Filled by a function: a value
   * holding `$&` or `$'` stays as written.
   */
  term(key: Key, values: Record<string, string> = {}): string {
    const text = this.#host.strings?.[key] ?? this.#pack?.[key] ?? this.#english[key];
    return String(text)
      .replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder)
      .trim();
  }
}
