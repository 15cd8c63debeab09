// connect-provider: the <connect-provider> element (registered on import).
import './element/define.js';

export { ConnectProvider } from './element/connect-provider.js';
export { defineConnectProvider, TAG } from './element/define.js';
export { ConnectError } from './element/events.js';
export type * from './element/events.js';
export type { ConnectState } from './element/machine.js';
export { DEFAULT_STRINGS } from './element/strings.js';
export type { ConnectStrings } from './element/strings.js';
export { registerLocale } from './element/locales.js';
export type { LocaleStrings } from './element/locales.js';
export type { Connection, ConnectionStatus, Problem } from './shared/types.js';
