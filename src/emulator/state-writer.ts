// Each change of the emulator's state saved to its data file before it is
// answered, with writes coalesced: one write at a time, and the changes asked
// for during a write share the next one.
import { serializeState, writeStateFileAsync } from './state-file.js';
import type { EmulatorState } from './state.js';

export interface StateWriter {
  /**
   * Saves the state: one write at a time, each of the state as it is when that write starts, so saves asked for
   * during a write share the next one (one fsync). Resolves once a write begun after this call is on disk; rejects
   * when it failed (also reported to onError).
   */
  save(state: EmulatorState): Promise<void>;
  /** Resolves once every save asked for so far is on disk (or failed and was reported). */
  flush(): Promise<void>;
}

/**
 * Saves the state to `file` without blocking the event loop on the disk. Saves
 * asked for while a write is under way coalesce into one next write, so the
 * state is serialized (and fsynced) once per write, not once per change; each
 * save's promise settles with the write that holds it; a failed write is
 * reported, and the next change tries again.
 */
export function createStateWriter(
  file: string,
  onError: (error: unknown) => void,
  /** How one write is made (tests count them): temp file, fsync, rename, fsync of the folder. */
  write: (file: string, text: string) => Promise<void> = writeStateFileAsync,
  /** Told the size in bytes of each state serialized for a write, as soon as it is serialized. */
  serialized: (bytes: number) => void = () => {},
): StateWriter {
  let pending: EmulatorState | undefined;
  let waiting: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  let running: Promise<void> | undefined;
  async function writePending(): Promise<void> {
    // Changes of the requests of this turn of the event loop share the first write.
    await new Promise((resolve) => setImmediate(resolve));
    while (pending !== undefined) {
      const text = serializeState(pending);
      pending = undefined;
      serialized(Buffer.byteLength(text));
      const batch = waiting;
      waiting = [];
      try {
        await write(file, text);
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        onError(error);
        for (const waiter of batch) waiter.reject(error);
      }
    }
    running = undefined;
  }
  return {
    save(state) {
      pending = state;
      const saved = new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
      running ??= writePending();
      return saved;
    },
    async flush() {
      while (running) await running;
    },
  };
}
