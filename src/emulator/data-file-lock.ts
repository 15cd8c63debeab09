// One emulator at a time per data file: an exclusive lock file in the system's
// temp folder, naming the process that holds it, taken over when that process
// is gone, and removed on release or at the process's exit. A lock is created
// whole and at once (written to a temporary file, then hard-linked to its
// name), and a stale one is taken over under a claim that only one process can
// win: a second lock file named after the stale lock's identity, itself a lock
// (so a claimant killed mid-takeover is taken over the same way).
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { EmulatorDataError } from './state-file.js';

/** The locks this process holds (path -> the text it wrote), released at its exit if not before. */
const heldLocks = new Map<string, string>();
/** The claims of a takeover under way in this process (never held across calls). */
const heldClaims = new Set<string>();

function releaseHeldLocks(): void {
  for (const [lock, text] of heldLocks) removeIfOurs(lock, text);
}

/** Holds a lock until its release or the process's exit: the exit hook is there only while a lock is held. */
function holdLock(lock: string, text: string): void {
  if (heldLocks.size === 0) process.on('exit', releaseHeldLocks);
  heldLocks.set(lock, text);
}

/** Stops holding the lock `lock` that wrote `text`: never the entry of another emulator that holds that path now. */
function dropLock(lock: string, text: string): void {
  if (heldLocks.get(lock) === text) heldLocks.delete(lock);
  if (heldLocks.size === 0) process.off('exit', releaseHeldLocks);
}

/** Removes a lock file only while it holds `text` (this emulator's): never another's that took it since. */
function removeIfOurs(lock: string, text: string): void {
  let now: string;
  try {
    now = readFileSync(lock, 'utf8');
  } catch {
    return;
  }
  if (now === text) rmSync(lock, { force: true });
}

/**
 * The file a data file's name stands for: symbolic links followed (a link to a link too, and one to a file that does
 * not exist yet); the name itself when it is no link. A loop of links (or a chain of more than 40, as the system
 * itself allows) is refused with EmulatorDataError: there is no file to read or write.
 */
export function dataFileTarget(file: string): string {
  let path = resolve(file);
  for (let hops = 0; hops <= 40; hops++) {
    let link: string;
    try {
      link = readlinkSync(path);
    } catch {
      // No link (EINVAL), missing, or not readable: the name as it is.
      return path;
    }
    path = resolve(dirname(path), link);
  }
  throw new EmulatorDataError(`the data file ${file} is a loop of symbolic links, or a chain of more than 40`);
}

/**
 * Where the lock of a data file is: in the system's temp folder (the data file's folder holds only the data), named
 * after the real path of the file it stands for, so every spelling of one file (through a link to its folder or to
 * the file itself) shares a lock.
 */
export function lockPathOf(file: string): string {
  const target = dataFileTarget(file);
  let folder = dirname(target);
  try {
    folder = realpathSync(folder);
  } catch {
    // A folder that does not exist yet: its spelling.
  }
  const key = createHash('sha256')
    .update(join(folder, basename(target)))
    .digest('hex')
    .slice(0, 32);
  return join(tmpdir(), `connect-provider-emulator-${key}.lock`);
}

/** A lock file as looked at: its text, the process it names, its age, and an identity no other lock file shares. */
interface Seen {
  id: string;
  holder: number | undefined;
  ageMs: number;
}

/** The process named in a lock's text; undefined when it names none (not ours). */
function holderIn(text: string): number | undefined {
  try {
    const pid = (JSON.parse(text) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The lock file at `path`; undefined when there is none (removed meanwhile). */
function look(path: string): Seen | undefined {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    // Removed meanwhile: look again (a lock another process creates before the stat below must be read whole, not
    // taken for one that names no process). Not readable: a lock that names no process.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  }
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined;
  }
  // Every lock this module writes holds a random nonce: two lock files never share an identity.
  const id = createHash('sha256').update(`${stats.ino}\0${stats.mtimeMs}\0${text}`).digest('hex').slice(0, 32);
  return { id, holder: holderIn(text), ageMs: Date.now() - stats.mtimeMs };
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
/** How long to wait for another process's takeover of a stale lock to end. */
const TAKEOVER_WAIT_MS = 5_000;
/** Claims on claims: a claimant killed mid-takeover is taken over; past this depth, give up. */
const CLAIM_DEPTH = 4;

/** Whether a lock seen is left by no live owner: its process gone, this process's without being held, or unnamed and old. */
function isStale(path: string, seen: Seen): boolean {
  if (seen.holder === undefined) return seen.ageMs >= UNNAMED_LOCK_MS;
  if (seen.holder === process.pid) return !heldLocks.has(path) && !heldClaims.has(path);
  return !isRunning(seen.holder);
}

/** Creates the lock file `path` holding `text`, whole and at once; false when one is there already. */
function create(path: string, text: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EXDEV'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    // A file system without hard links: created exclusively, written at once (a lock naming no process meanwhile).
    return createExclusive(path, text);
  } finally {
    rmSync(temp, { force: true });
  }
}

function createExclusive(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

class ChangingHands extends Error {}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Takes the lock file `path` for this process, writing `text` in it. Returns undefined once taken, or the lock seen
 * when a live process holds it (or one naming none is younger than UNNAMED_LOCK_MS). A stale lock is removed only by
 * the one process that wins its claim (`path.<its identity>.takeover`, taken by this same function), after checking
 * it is still that lock: two processes that both judged it stale never both remove a lock, so never a fresh one.
 */
function take(path: string, text: string, depth: number): Seen | undefined {
  let takeovers = 0;
  let looks = 0;
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    if (create(path, text)) return undefined;
    const seen = look(path);
    if (++looks > 100) throw new ChangingHands();
    if (!seen) continue;
    if (!isStale(path, seen)) return seen;
    if (takeovers >= 3 || depth >= CLAIM_DEPTH) throw new ChangingHands();
    const claim = `${path}.${seen.id}.takeover`;
    const claimText = JSON.stringify({ pid: process.pid, nonce: randomBytes(8).toString('hex') });
    if (take(claim, claimText, depth + 1)) {
      // A live process is taking this lock over: wait for it to end.
      if (Date.now() > deadline) throw new ChangingHands();
      sleep(10);
      continue;
    }
    heldClaims.add(claim);
    try {
      // Still the lock judged stale (only this claim's winner removes it): remove it. Else someone took it meanwhile.
      if (look(path)?.id === seen.id) {
        rmSync(path, { force: true });
        takeovers++;
      }
    } finally {
      heldClaims.delete(claim);
      removeIfOurs(claim, claimText);
    }
  }
}

/**
 * Takes the exclusive lock of a data file, or throws EmulatorDataError naming the emulator that holds it. A lock
 * whose process is gone (killed, crashed) is taken over, by exactly one of the emulators started on it at once.
 * Returns its release (idempotent).
 */
export function lockDataFile(file: string): () => void {
  const lock = lockPathOf(file);
  const text = JSON.stringify({ pid: process.pid, file: resolve(file), nonce: randomBytes(8).toString('hex') });
  let holder: Seen | undefined;
  try {
    holder = take(lock, text, 0);
  } catch (error) {
    if (error instanceof ChangingHands)
      throw new EmulatorDataError(`the lock of the data file ${file} keeps changing hands (its lock: ${lock})`);
    throw new EmulatorDataError(
      `the lock file ${lock} of the data file ${file} could not be created (${(error as Error).message})`,
      { cause: error },
    );
  }
  if (holder?.holder !== undefined) {
    throw new EmulatorDataError(
      `another emulator (process ${holder.holder}) is using the data file ${file}; stop it first, or pass another --data file (its lock: ${lock})`,
    );
  }
  if (holder) throw new EmulatorDataError(`another emulator is starting on the data file ${file} (its lock: ${lock})`);
  holdLock(lock, text);
  // Idempotent by the lock's text (its nonce is this emulator's alone): a second close() neither removes nor forgets
  // a lock another emulator, of this process or another, took since.
  return () => {
    dropLock(lock, text);
    removeIfOurs(lock, text);
  };
}
