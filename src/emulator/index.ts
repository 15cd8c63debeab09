// connect-provider/emulator: a local implementation of the platform.
export { createEmulator, ownsPath } from './emulator.js';
export type { Emulator, EmulatorOptions, ListenInfo } from './emulator.js';
export { seedState } from './seed.js';
export { EmulatorDataError } from './store.js';
export type { EmulatorState } from './store.js';
export { PROVIDERS } from './providers.js';
export type { ProviderCatalogInfo, ProviderInfo } from './providers.js';
export { LIMITS } from './limits.js';
export type { CompletionMessage } from './pages.js';
