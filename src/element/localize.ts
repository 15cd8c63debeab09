// Internal: the language controller both tags use, as Shoelace's LocalizeController. At each update it finds the pack
// of the `lang` that applies to its element (locales.ts); a pack that registers or a `lang` or `dir` that changes
// anywhere in the page updates the element again. A text is the host's own `strings`, else the pack's, else English.
// Where the page sets no `dir`, a right-to-left language turns the element right to left (the custom state `rtl`).
import type { ReactiveController, ReactiveElement } from 'lit';
import type { BrowserProvider } from '../shared/provider.js';
import { dirOf, isRightToLeft, langOf, localeFor, onLocaleChange, type LocaleStrings } from './locales.js';

/** The provider as the user reads it: its displayName once known, else its name with a capital. */
export const displayNameOf = (provider: string, info?: Pick<BrowserProvider, 'displayName'> | null): string =>
  info?.displayName || (provider ? provider[0].toUpperCase() + provider.slice(1) : '');

export class Localize<Key extends keyof LocaleStrings> implements ReactiveController {
  #host: ReactiveElement & { strings?: Partial<Record<Key, string>> };
  #english: Record<Key, string>;
  /** The registered pack for the element's language, found at each update. */
  #pack?: Partial<LocaleStrings>;
  #stop?: () => void;
  /** The element's custom states (`:state(rtl)`), where the browser has them. */
  #states?: Set<string>;

  constructor(host: ReactiveElement & { strings?: Partial<Record<Key, string>> }, english: Record<Key, string>) {
    (this.#host = host).addController(this);
    this.#english = english;
    try {
      this.#states = host.attachInternals().states;
    } catch {
      // No ElementInternals (a server's DOM shim): the page's own dir applies.
    }
  }

  hostConnected(): void {
    this.#stop = onLocaleChange(() => this.#host.requestUpdate());
  }

  hostDisconnected(): void {
    this.#stop?.();
  }

  hostUpdate(): void {
    const lang = langOf(this.#host);
    this.#pack = localeFor(lang);
    const rtl = isRightToLeft(lang) && !dirOf(this.#host);
    try {
      if (rtl) this.#states?.add('rtl');
      else this.#states?.delete('rtl');
    } catch {
      // A browser of the older `--name` states: the page's own dir applies.
    }
  }

  /**
   * A user-facing text with each `{name}` placeholder given in `values` filled in. Filled by a function: a value
   * holding `$&` or `$'` stays as written. A value that does not begin and end with a letter ("Yahoo!", "8x8") is
   * isolated (U+2068…U+2069), so its punctuation and digits keep their place in a text of the other direction.
   */
  term(key: Key, values: Record<string, string> = {}): string {
    const text = this.#host.strings?.[key] ?? this.#pack?.[key] ?? this.#english[key];
    return String(text)
      .replace(/\{(\w+)\}/g, (placeholder, name: string) => {
        const value = values[name];
        if (value === undefined) return placeholder;
        return /^(\p{L}(.*[\p{L}\p{M}])?|\d*)$/su.test(value) ? value : `\u2068${value}\u2069`;
      })
      .trim();
  }
}
