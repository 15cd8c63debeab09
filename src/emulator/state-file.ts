// The emulator's data file: read and checked at the start, and written
// atomically (temp file, fsync, rename, fsync of the folder), so a crash at
// any moment leaves either the old file or the new one. Blocking for the
// start-up, non-blocking (writeStateFileAsync) for each change.
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { newTokenSecret } from './ids.js';
import type { EmulatorState } from './state.js';

export class EmulatorDataError extends Error {
  override name = 'EmulatorDataError';
}

const LIST_KEYS = [
  'orgs',
  'projects',
  'invites',
  'providerApps',
  'destinations',
  'topics',
  'topicDestinationRoutes',
  'notificationEventTopicRoutes',
  'integrations',
  'records',
  'connections',
  'consents',
] as const;

/** Reads a data file; a missing file is null, an unreadable or malformed one throws EmulatorDataError. */
export function readStateFile(file: string): EmulatorState | null {
  if (!existsSync(file)) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    // A folder, or a file this process may not read.
    throw new EmulatorDataError(`the data file ${file} could not be read (${(error as Error).message})`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EmulatorDataError(
      `the data file ${file} is not valid JSON (${(error as Error).message}); it was left untouched: fix it, or move it away to start from the seed data`,
    );
  }
  // A primitive's or an array's `version` is undefined: only an object of version 1 passes.
  const state = parsed as Partial<EmulatorState> | null;
  if (state?.version !== 1) {
    throw new EmulatorDataError(
      `the data file ${file} is not an emulator data file of version 1; it was left untouched`,
    );
  }
  for (const key of LIST_KEYS) {
    if (!Array.isArray(state[key])) {
      throw new EmulatorDataError(`the data file ${file} has no list "${key}"; it was left untouched`);
    }
  }
  if (state.tokenSecret !== undefined && (typeof state.tokenSecret !== 'string' || state.tokenSecret.length < 16)) {
    throw new EmulatorDataError(
      `the data file ${file} has a tokenSecret that is not a string of 16 characters or more; it was left untouched`,
    );
  }
  // Files written before the secret was kept get one now.
  state.tokenSecret ??= newTokenSecret();
  return state as EmulatorState;
}

function tempName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** Temp files a writer of `file` leaves only when killed mid-write. */
function isTempOf(file: string, name: string): boolean {
  const base = basename(file);
  return name.startsWith(`${base}.`) && /^\.\d+\.[0-9a-f]{8}\.tmp$/.test(name.slice(base.length));
}

/** Removes temp files left by a writer of `file` that was killed mid-write. */
export function removeStrayTemps(file: string): void {
  const dir = dirname(file);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (isTempOf(file, name)) rmSync(join(dir, name), { force: true });
}

/** The text of the data file. */
export function serializeState(state: EmulatorState): string {
  return JSON.stringify(state, null, 1) + '\n';
}

/**
 * Writes the state so that a crash at any moment leaves either the old file or the new one (blocking: for start-up),
 * and answers the file's size in bytes. Throws EmulatorDataError when the file cannot be written.
 */
export function writeStateFile(file: string, state: EmulatorState): number {
  const temp = tempName(file);
  const text = serializeState(state);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    syncFolderSync(dirname(file));
    return Buffer.byteLength(text);
  } catch (error) {
    rmSync(temp, { force: true });
    // A folder that does not exist, or one this process may not write to.
    throw new EmulatorDataError(`the data file ${file} could not be written (${(error as Error).message})`, {
      cause: error,
    });
  }
}

/** Writes a serialized state as writeStateFile does, without blocking the event loop on the disk. */
export async function writeStateFileAsync(file: string, text: string): Promise<void> {
  const temp = tempName(file);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    // Nothing to remove when it was never made, or already renamed.
    await rm(temp).catch(() => {});
    throw error;
  }
  await syncFolder(dirname(file));
}

/** Makes a rename in `folder` durable (fsync of the folder); a system that cannot fsync a folder is let be. */
async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Windows opens no folder for fsync; the rename itself is done.
  } finally {
    await handle?.close().catch(() => {});
  }
}

function syncFolderSync(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // As syncFolder.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
