// One emulator at a time per data file: an exclusive lock file in the system's
// temp folder, naming the process that holds it, taken over when that process
// is gone, and removed on release or at the process's exit.
import { closeSync, openSync, readFileSync, realpathSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { EmulatorDataError } from './state-file.js';

/** The locks this process holds, released at its exit if not before. */
const heldLocks = new Set<string>();

function releaseHeldLocks(): void {
  for (const lock of heldLocks) rmSync(lock, { force: true });
}

/** Holds a lock until its release or the process's exit: the exit hook is there only while a lock is held. */
function holdLock(lock: string): void {
  if (heldLocks.size === 0) process.on('exit', releaseHeldLocks);
  heldLocks.add(lock);
}

function dropLock(lock: string): void {
  heldLocks.delete(lock);
  if (heldLocks.size === 0) process.off('exit', releaseHeldLocks);
}

/**
 * Where the lock of a data file is: in the system's temp folder (the data file's folder holds only the data), named
 * after the file's real path, so two spellings of one file share a lock.
 */
export function lockPathOf(file: string): string {
  const absolute = resolve(file);
  let folder = dirname(absolute);
  try {
    folder = realpathSync(folder);
  } catch {
    // A folder that does not exist yet: its spelling.
  }
  const key = createHash('sha256')
    .update(join(folder, basename(absolute)))
    .digest('hex')
    .slice(0, 32);
  return join(tmpdir(), `connect-provider-emulator-${key}.lock`);
}

/** The process named in a lock file; undefined when it names none (being written, or not ours). */
function lockHolder(lock: string): number | undefined {
  try {
    const pid = (JSON.parse(readFileSync(lock, 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How long a lock file that names no process is taken as another emulator starting. */
const UNNAMED_LOCK_MS = 10_000;

/**
 * Takes the exclusive lock of a data file, or throws EmulatorDataError naming the emulator that holds it. A lock
 * whose process is gone (killed, crashed) is taken over. Returns its release (idempotent).
 */
export function lockDataFile(file: string): () => void {
  const lock = lockPathOf(file);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new EmulatorDataError(
          `the lock file ${lock} of the data file ${file} could not be created (${(error as Error).message})`,
          { cause: error },
        );
      }
      const holder = lockHolder(lock);
      if (holder !== undefined && isRunning(holder) && (holder !== process.pid || heldLocks.has(lock))) {
        throw new EmulatorDataError(
          `another emulator (process ${holder}) is using the data file ${file}; stop it first, or pass another --data file (its lock: ${lock})`,
        );
      }
      if (holder === undefined) {
        let age = Infinity;
        try {
          age = Date.now() - statSync(lock).mtimeMs;
        } catch {
          // Gone meanwhile: try again.
        }
        if (age < UNNAMED_LOCK_MS)
          throw new EmulatorDataError(`another emulator is starting on the data file ${file} (its lock: ${lock})`);
      }
      // Left by an emulator that is gone.
      rmSync(lock, { force: true });
      continue;
    }
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, file: resolve(file) }));
    } finally {
      closeSync(fd);
    }
    holdLock(lock);
    // Released once: a second close() must not remove the lock another emulator of this process took since.
    let released = false;
    return () => {
      if (released) return;
      released = true;
      dropLock(lock);
      rmSync(lock, { force: true });
    };
  }
  throw new EmulatorDataError(`the lock of the data file ${file} keeps changing hands (its lock: ${lock})`);
}
