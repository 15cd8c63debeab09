/** 'connect-success' -> 'CustomEvent<ConnectSuccessDetail>': HTMLElementEventMap's `connect-*` members as typed. */
export function eventTypes(file?: string): Record<string, string>;

/** Class name -> its members declared `{ state: true }` in `static properties`, or `private` / `#private`. */
export function internalMembers(path: string): Map<string, Set<string>>;

declare const config: Record<string, unknown>;
export default config;

/** The analyzer's source files, each `static properties = {...} as const` blanked to the bare object literal. */
export function sourcesForAnalyzer(args: {
  ts: typeof import('typescript');
  globs: string[];
}): import('typescript').SourceFile[];

/** Class name -> field name -> its initializer's value where the compiler knows it as a literal. */
export function literalDefaults(paths: string[]): Map<string, Map<string, string>>;
