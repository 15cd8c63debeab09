// The emulator's state: its shape, and its JSON file, kept atomically (temp
// file, fsync, rename, fsync of the folder) and durably (a change is on disk
// before its answer), by one emulator at a time (an exclusive lock file).
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type {
  Connection,
  ConnectionStatus,
  Destination,
  Invite,
  NotificationEventTopicRoute,
  Project,
  ProviderApp,
  Token,
  TopicDestinationRoute,
} from '../shared/types.js';
import type { StoredCredentials } from './credentials.js';

export interface Org {
  id: string;
  name: string;
}

/** A destination and the project it belongs to (the spec's Destination has no projectId). */
export type StoredDestination = Destination & { projectId: string };

export interface Topic {
  id: string;
  projectId: string;
  name: string;
  createTime: string;
}

export interface StoredIntegration {
  id: string;
  projectId: string;
  name: string;
  provider: string;
  createTime: string;
  /** objectName -> (provider field name -> the integration's mapped name) */
  fieldMappings: Record<string, Record<string, string>>;
}

export interface StoredRecord {
  integrationId: string;
  groupRef: string;
  objectName: string;
  raw: Record<string, unknown>;
}

export interface StoredConnection extends Omit<Connection, 'oauth2AuthorizationCode' | 'apiKey'> {
  /** A connection made through consent: its OAuth tokens. */
  tokens?: { accessToken: Token; refreshToken: Token; scopes: string[] };
  /** A connection made by generate connection: the credentials it was given. */
  credentials?: StoredCredentials;
  /** A verification in progress: the status the connection reaches at `at`. */
  pending?: { status: ConnectionStatus; at: string };
}

export interface ConsentSession {
  id: string;
  mode: 'create' | 'update';
  projectId: string;
  provider: string;
  groupRef: string;
  groupName: string;
  consumerRef: string;
  consumerName: string;
  providerWorkspaceRef?: string;
  providerMetadata?: Record<string, unknown>;
  providerAppId?: string;
  connectionId?: string;
  createTime: string;
  expiresAt: string;
  /** Set once the user decided: the session cannot be used again. */
  decision?: 'allow' | 'allow_bad_credentials' | 'deny';
  resultConnectionId?: string;
}

export interface EmulatorState {
  version: 1;
  orgs: Org[];
  projects: Project[];
  invites: Invite[];
  providerApps: ProviderApp[];
  destinations: StoredDestination[];
  topics: Topic[];
  topicDestinationRoutes: TopicDestinationRoute[];
  notificationEventTopicRoutes: NotificationEventTopicRoute[];
  integrations: StoredIntegration[];
  records: StoredRecord[];
  connections: StoredConnection[];
  consents: ConsentSession[];
  /** The secret that signs this state's Bearer JWTs: random, kept with the data. */
  tokenSecret: string;
}

/** A short random ID with a readable prefix, e.g. conn_4f9c2a7d1e0b. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** A random opaque token. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url')}`;
}

export const TOKEN_LIFETIME_MS = 60 * 60 * 1000;

export function issueTokens(scopes: string[], now: Date): NonNullable<StoredConnection['tokens']> {
  const issuedAt = now.toISOString();
  return {
    accessToken: {
      token: newSecret('at'),
      issuedAt,
      expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
    },
    refreshToken: { token: newSecret('rt'), issuedAt },
    scopes,
  };
}

/** A random secret for signing Bearer JWTs. */
export function newTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}

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

function serialize(state: EmulatorState): string {
  return JSON.stringify(state, null, 1) + '\n';
}

/**
 * Writes the state so that a crash at any moment leaves either the old file or the new one (blocking: for start-up).
 * Throws EmulatorDataError when the file cannot be written.
 */
export function writeStateFile(file: string, state: EmulatorState): void {
  const temp = tempName(file);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, serialize(state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    syncFolderSync(dirname(file));
  } catch (error) {
    rmSync(temp, { force: true });
    // A folder that does not exist, or one this process may not write to.
    throw new EmulatorDataError(`the data file ${file} could not be written (${(error as Error).message})`, {
      cause: error,
    });
  }
}

async function writeStateFileAsync(file: string, text: string): Promise<void> {
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
    await rm(temp, { force: true }).catch(() => {});
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
export function stateWriter(
  file: string,
  onError: (error: unknown) => void,
  /** How one write is made (tests count them): temp file, fsync, rename, fsync of the folder. */
  write: (file: string, text: string) => Promise<void> = writeStateFileAsync,
): StateWriter {
  let pending: EmulatorState | undefined;
  let waiting: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  let running: Promise<void> | undefined;
  async function drain(): Promise<void> {
    // Changes of the requests of this turn of the event loop share the first write.
    await new Promise((resolve) => setImmediate(resolve));
    while (pending !== undefined) {
      const text = serialize(pending);
      pending = undefined;
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
      running ??= drain();
      return saved;
    },
    async flush() {
      while (running) await running;
    },
  };
}

/** The locks this process holds, released at its exit if not before. */
const heldLocks = new Set<string>();
process.on('exit', () => {
  for (const lock of heldLocks) rmSync(lock, { force: true });
});

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
    heldLocks.add(lock);
    // Released once: a second close() must not remove the lock another emulator of this process took since.
    let released = false;
    return () => {
      if (released) return;
      released = true;
      heldLocks.delete(lock);
      rmSync(lock, { force: true });
    };
  }
  throw new EmulatorDataError(`the lock of the data file ${file} keeps changing hands (its lock: ${lock})`);
}
