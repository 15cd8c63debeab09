// The emulator's state and its data file: read (or seeded) at the start, and
// each request's change on disk before its answer (a 503 when it could not be
// written). Without a data file the state lives in memory only.
import { HttpProblem } from '../http/http-problem.js';
import { seedState } from './seed.js';
import { dataFileTarget, lockDataFile } from './data-file-lock.js';
import { type EmulatorState } from './state.js';
import { readStateFile, removeStrayTemps, writeStateFile } from './state-file.js';
import { createStateWriter } from './state-writer.js';
import { LIMITS } from './limits.js';

export interface DurableState {
  readonly state: EmulatorState;
  /** Saves the state after a change, before the change is answered; a 503 problem when it could not be saved. */
  save(): Promise<void>;
  /** Resolves once every change so far is in the data file (at once without one). */
  flush(): Promise<void>;
  /** Waits for the last write, and lets another emulator open the data file. */
  close(): Promise<void>;
  /**
   * Room for a change that may add up to `bytes` to the data file: counted until the next write measures the file,
   * or undefined when the file might then be larger than LIMITS.dataFileBytes. Without a data file, always room.
   */
  reserve(bytes: number): Reservation | undefined;
  /** The size in bytes of the data file's last state (0 without one). */
  readonly size: number;
}

/** Room taken for a change; released when the request made no change after all. */
export interface Reservation {
  release(): void;
}

/** The state, from the data file when there is one (locked for this emulator until close()). */
function openState(dataFile: string | undefined): { state: EmulatorState; size: number; unlock?: () => void } {
  if (!dataFile) return { state: seedState(), size: 0 };
  // One emulator per data file: a second one is refused (EmulatorDataError) before it touches the file.
  const unlock = lockDataFile(dataFile);
  try {
    // Through a symbolic link, the file it points to is read and written (a write never replaces the link).
    const target = dataFileTarget(dataFile);
    removeStrayTemps(target);
    const state = readStateFile(target) ?? seedState();
    const size = writeStateFile(target, state);
    return { state, size, unlock };
  } catch (error) {
    unlock();
    throw error;
  }
}

export function openDurableState(dataFile: string | undefined): DurableState {
  const opened = openState(dataFile);
  const { state, unlock } = opened;
  // The data file's size: measured at each serialization; the room taken by the changes made since, on top.
  let size = opened.size;
  let reserved = 0;
  let measures = 0;
  const writer = dataFile
    ? createStateWriter(
        dataFileTarget(dataFile),
        (error) => console.error(`[emulator] could not save ${dataFile}; the next change tries again:`, error),
        undefined,
        (bytes) => {
          size = bytes;
          reserved = 0;
          measures++;
        },
      )
    : undefined;
  return {
    state,
    get size() {
      return size;
    },
    reserve(bytes) {
      if (!writer) return { release() {} };
      if (size + reserved + bytes > LIMITS.dataFileBytes) return undefined;
      reserved += bytes;
      const measure = measures;
      let released = false;
      return {
        release() {
          // A write since measured the file with or without this change: nothing to give back then.
          if (released || measure !== measures) return;
          released = true;
          reserved -= bytes;
        },
      };
    },
    async save() {
      if (!writer) return;
      try {
        await writer.save(state);
      } catch {
        throw new HttpProblem(
          {
            status: 503,
            detail: `the change was made in memory but could not be saved to the data file ${dataFile}; the next change tries again`,
            retryable: true,
          },
          { 'retry-after': '1' },
        );
      }
    },
    flush: () => writer?.flush() ?? Promise.resolve(),
    async close() {
      await writer?.flush();
      unlock?.();
    },
  };
}
