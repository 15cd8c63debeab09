// connect-provider/emulator: a local implementation of the platform.
export { createEmulator } from './emulator.js';
export type { Emulator, EmulatorOptions, ListenInfo } from './emulator.js';
export { EmulatorDataError } from './state-file.js';
export type { EmulatorState } from './state.js';
