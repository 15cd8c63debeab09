// connect-provider/emulator: a local implementation of the platform.
export { createEmulator } from './emulator.js';
export type { Emulator, ListenInfo } from './emulator.js';
export type { EmulatorOptions } from './options.js';
export { EmulatorDataError } from './state-file.js';
export type { EmulatorState } from './state.js';
