// connect-provider/emulator: a local implementation of the platform.
export { createEmulator, ownsPath } from './emulator.js';
export type { Emulator, EmulatorOptions, ListenInfo } from './emulator.js';
export { EmulatorDataError, seedState } from './store.js';
export type { EmulatorState } from './store.js';
export { PROVIDERS } from './providers.js';
export type { ProviderInfo } from './providers.js';
export type { CompletionMessage } from './pages.js';
