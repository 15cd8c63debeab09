// The language an element speaks (docs/architecture.md, "Languages and direction"): locale packs register
// themselves here on import, and an element uses the best registered match for the `lang` that applies to it.
//
// The registry is one object per page on `globalThis` under a `Symbol.for` key, so a pack imported through a
// bundler and a tag defined by the self-contained bundle (or the other way round) meet. Registering touches neither
// `window` nor `document`: importing a pack on a server does nothing else.
import type { IntegrationsStrings } from './integrations-strings.js';
import type { ConnectStrings } from './strings.js';

/** A text that holds the placeholder `{P}` somewhere. */
type Holding<P extends string> = `${string}{${P}}${string}`;

/**
 * What a locale pack exports: every text of both tags, each with the placeholders the English one has, so a pack
 * that leaves out a key or a placeholder fails the type check (an extra placeholder is caught by
 * test/node/locales/packs.test.ts).
 */
export type LocaleStrings = {
  [K in keyof ConnectStrings | keyof IntegrationsStrings]: K extends keyof typeof PLACEHOLDERS
    ? PlaceholderText<(typeof PLACEHOLDERS)[K]>
    : string;
};

type PlaceholderText<T extends readonly string[]> = T extends readonly [infer P extends string]
  ? Holding<P>
  : T extends readonly [infer P extends string, infer Q extends string]
    ? Holding<P> & Holding<Q>
    : string;

/** The placeholders each text has (the rest have none). */
export const PLACEHOLDERS = {
  connect: ['provider'],
  reconnect: ['provider'],
  popup: ['provider'],
  authorizing: ['provider'],
  waiting: ['provider'],
  working: ['provider'],
  bad_credentials: ['provider'],
  needsReconnect: ['provider'],
  authorization_failed: ['provider'],
  verifyTimeout: ['provider'],
  signIn: ['provider'],
  unknownProvider: ['provider'],
  required: ['field', 'provider'],
  refusedField: ['field', 'provider'],
  tooLong: ['field'],
  reveal: ['field'],
  disconnectNamed: ['provider'],
  linkWay: ['provider'],
  qrLabel: ['provider'],
  noMatch: ['query'],
  since: ['date'],
  summary: ['connected', 'attention'],
  workspace: ['provider'],
  invalidWorkspace: ['field'],
  confirmDisconnect: ['provider'],
  disconnectFailed: ['provider'],
  disconnected: ['provider'],
  matches: ['count', 'total'],
} as const;

interface Registry {
  /** Packs by lower-case language tag. */
  packs: Record<string, Partial<LocaleStrings>>;
  /** Called when a pack registers, or a `lang` attribute changes on the page. */
  listeners: Set<() => void>;
  observing?: boolean;
}

const registry: Registry = ((globalThis as { [key: symbol]: Registry })[Symbol.for('connect-provider.locales')] ??= {
  packs: {},
  listeners: new Set(),
});

/** Makes `strings` the texts for `lang` (a BCP 47 tag, e.g. `de` or `pt-BR`) on this page; shown elements switch. */
export function registerLocale(lang: string, strings: Partial<LocaleStrings>): void {
  registry.packs[lang.toLowerCase()] = strings;
  for (const listener of registry.listeners) listener();
}

/** The best registered pack for `lang`: the tag itself (`pt-br`), its language (`pt`), else a region of it (`pt-*`). */
export function localeFor(lang: string): Partial<LocaleStrings> | undefined {
  const packs = registry.packs;
  const tag = lang.toLowerCase();
  const language = tag.split('-')[0];
  return (
    packs[tag] ?? packs[language] ?? packs[Object.keys(packs).find((key) => key.startsWith(`${language}-`)) as string]
  );
}

/** The `lang` that applies to `element`: its own, else the nearest ancestor's across shadow roots, else none. */
export function langOf(element: Element): string {
  for (
    let node: (Node & { lang?: string; host?: Element }) | null = element;
    node;
    node = node.parentNode ?? node.host!
  )
    if (node.lang) return node.lang;
  return '';
}

/** The `dir` that applies to `element`: its own, else the nearest ancestor's (across shadow roots); '' when none. */
export function dirOf(element: Element): string {
  for (let node: (Node & { dir?: string; host?: Element }) | null = element; node; node = node.parentNode ?? node.host!)
    if (node.dir) return node.dir;
  return '';
}

/** Languages written right to left (a pack of one is read right to left where the page sets no `dir`). */
export const isRightToLeft = (lang: string): boolean => /^(ar|he|iw|fa|ur|ps|yi|dv|ckb|sd|ug)\b/i.test(lang);

/**
 * Calls `listener` when a pack registers or a `lang` attribute changes anywhere in the document (one observer for
 * the page, made by the first element that listens). Returns the way to stop.
 */
export function onLocaleChange(listener: () => void): () => void {
  registry.listeners.add(listener);
  if (!registry.observing) {
    registry.observing = true;
    new MutationObserver(() => registry.listeners.forEach((each) => each())).observe(document, {
      attributeFilter: ['lang', 'dir'],
      subtree: true,
    });
  }
  return () => registry.listeners.delete(listener);
}
