/** 'connect-success' -> 'CustomEvent<ConnectSuccessDetail>': HTMLElementEventMap's `connect-*` members as typed. */
export function eventTypes(file?: string): Record<string, string>;

/** Class name -> its members declared `{ state: true }` in `static properties`, or `private` / `#private`. */
export function internalMembers(path: string): Map<string, Set<string>>;

declare const config: Record<string, unknown>;
export default config;
