// Internal: what the page reads of the caller's connections and of
// providers, shared by the page's elements: elements that ask within 2 s
// (REUSE_FOR; a settings page with N elements, rows rendered lazily) share one
// list request per endpoint, and a provider is asked once per endpoint per
// page. A read retries what may pass (READ_RETRIES); one that still fails is
// not kept, so the next ask reads again. A flow's outcome or a disconnect is
// told to the endpoint's other elements without a request. Its timing values
// are timing.ts's.
import type { Connection } from '../shared/types.js';
import type { BrowserProvider } from '../shared/provider.js';
import { absoluteEndpoint, BackendError, toConnections } from './backend.js';
import { BackendSession } from './backend-session.js';
import { readFailureMessage, type ReadRoute } from './developer-messages.js';
import { Lifetime } from './lifetime.js';
import { READ_RETRIES, REUSE_FOR } from './timing.js';

/**
 * The caller's connections; null when the backend cannot tell (it has no such route: known at once); undefined when
 * the read failed though it may pass (unknown: read again later).
 */
export type ConnectionList = Connection[] | null | undefined;

/**
 * One request made outside any flow (a read at rest, the list's integrations, a disconnect), with the retries every
 * read makes; resolves with the answer's data, or throws the last BackendError.
 */
export const requestAtRest = (
  endpoint: string,
  headers: Record<string, string>,
  method: string,
  path: string,
): Promise<unknown> => new BackendSession(new Lifetime(), endpoint, headers).retrying(method, path, READ_RETRIES);

/** What changed: a connection a flow made or updated, or one that was disconnected. */
export type ConnectionChange = { connection: Connection } | { removed: string };

/** List reads in flight, by endpoint: asked once, shared by every element that asks meanwhile. */
const lists = new Map<string, Promise<ConnectionList>>();
const providers = new Map<string, Promise<BrowserProvider | null | undefined>>();
const listeners = new Set<(endpoint: string, change: ConnectionChange) => void>();
/** The warnings said, each once: by endpoint and route (`{endpoint} connections`), or a whole endpoint the list speaks for. */
const warned = new Set<string>();
/** When each endpoint's last list read answered (Date.now()): reused for REUSE_FOR ms. */
const answeredAt = new Map<string, number>();
/** Connections disconnected on this page: a read asked before the disconnect may still list them. */
const removed = new Set<string>();
/** Why each endpoint's last list read failed (its BackendError), until a read answers. */
const listFailures = new Map<string, unknown>();

/** Forgets every read, warning and removal of the page (for tests: no test sees another's leftovers). */
export function resetPageReads(): void {
  for (const kept of [lists, providers, warned, removed, answeredAt, listFailures]) kept.clear();
}

/**
 * Why the endpoint's last read of the caller's connections failed (a 401: the user is signed out), or undefined
 * once a read answered. A caller that got `null` or `undefined` from readConnections reads the cause here.
 */
export function connectionsFailure(endpoint: string): BackendError | undefined {
  const failure = listFailures.get(absoluteEndpoint(endpoint));
  return failure instanceof BackendError ? failure : undefined;
}

/**
 * readConnections would now share a read asked earlier: one in flight, or answered less than REUSE_FOR ago. (A read
 * in flight may have left before what it answers changed: the user signed in meanwhile.)
 */
export function sharesConnections(endpoint: string): boolean {
  const key = absoluteEndpoint(endpoint);
  return lists.has(key) && !(Date.now() - answeredAt.get(key)! >= REUSE_FOR);
}

/**
 * The endpoint's shared reads no longer warn that it is not a connect backend: the caller (the list) tells the
 * developer itself, once, naming its own routes.
 */
export function warnsItself(endpoint: string): void {
  warned.add(absoluteEndpoint(endpoint));
}

/** The answer is the backend's "no such route" (a 404 or 405, or a page that is not a connect backend's). */
export const isMissingRoute = (error: unknown): boolean =>
  error instanceof BackendError && (error.notBackend || [404, 405].includes(error.problem?.status ?? 0));

/**
 * A read through the endpoint, shared: the one in `reads` under `key`, else a new one, read by `accept`, with the
 * retries every read makes. It answers null when the backend has no such route (a route that is not a connect
 * backend's is warned of once per endpoint and route, with what this route's read cannot do), and undefined when it
 * failed though that may pass: a failed read is dropped from `reads`, so the next ask reads again.
 */
function shared<T>(
  reads: Map<string, Promise<T | null | undefined>>,
  key: string,
  endpoint: string,
  path: string,
  route: ReadRoute,
  headers: Record<string, string>,
  accept: (answer: unknown) => T | null,
  failed?: (error: unknown) => void,
): Promise<T | null | undefined> {
  let read = reads.get(key);
  if (!read) {
    read = requestAtRest(endpoint, headers, 'GET', path).then(accept, (error) => {
      failed?.(error);
      const base = absoluteEndpoint(endpoint);
      const said = `${base} ${'provider' in route ? 'providers' : 'connections'}`;
      if (error instanceof BackendError && error.notBackend && !warned.has(base) && !warned.has(said)) {
        warned.add(said);
        console.warn(`<connect-provider>: ${readFailureMessage(error, endpoint, route)}`);
      }
      if (isMissingRoute(error)) return null;
      reads.delete(key);
      return undefined;
    });
    reads.set(key, read);
  }
  return read;
}

/** The caller's connections through the endpoint (a read in flight is shared). */
export function readConnections(endpoint: string, headers: Record<string, string>): Promise<ConnectionList> {
  const key = absoluteEndpoint(endpoint);
  // An answer is reused for a moment (rows rendered a little later), then the next ask reads again.
  if (Date.now() - answeredAt.get(key)! >= REUSE_FOR) lists.delete(key);
  return shared(
    lists,
    key,
    endpoint,
    '/connections',
    { connections: true },
    headers,
    (answer) => {
      answeredAt.set(key, Date.now());
      listFailures.delete(key);
      return Array.isArray(answer) ? toConnections(answer).filter((c) => !removed.has(c.id)) : null;
    },
    (error) => listFailures.set(key, error),
  );
}

/** Tells the endpoint's elements what a flow or a disconnect changed. */
export function announce(endpoint: string, change: ConnectionChange): void {
  const key = absoluteEndpoint(endpoint);
  if ('removed' in change) removed.add(change.removed);
  // A list read before the change no longer tells the truth.
  lists.delete(key);
  for (const listener of listeners) listener(key, change);
}

/** Calls back when a connection of an endpoint changed; returns the unsubscribe. */
export function onConnectionChange(listener: (endpoint: string, change: ConnectionChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A provider's info read otherwise (the integrations route): the endpoint's elements need not ask for it. */
export function knownProvider(endpoint: string, info: BrowserProvider): void {
  providers.set(`${absoluteEndpoint(endpoint)} ${info.name}`, Promise.resolve(info));
}

/** The provider's name, icon and inputs through the endpoint: null when the backend has no answer, undefined when it failed. */
export function readProvider(
  endpoint: string,
  provider: string,
  headers: Record<string, string>,
): Promise<BrowserProvider | null | undefined> {
  return shared(
    providers,
    `${absoluteEndpoint(endpoint)} ${provider}`,
    endpoint,
    `/providers/${encodeURIComponent(provider)}`,
    { provider },
    headers,
    (answer) => (answer && (answer as BrowserProvider).name === provider ? (answer as BrowserProvider) : null),
  );
}

/**
 * The caller's connection the element shows: the one `connectionId` names, else the newest of the provider (in the
 * workspace, when the element names one).
 */
export function pickConnection(
  list: Connection[],
  provider: string,
  connectionId?: string,
  workspace?: string,
): Connection | undefined {
  if (connectionId) return list.find((c) => c.id === connectionId);
  return list
    .filter((c) => c.provider === provider && (!workspace || c.providerWorkspaceRef === workspace))
    .sort((a, b) => String(b.createTime ?? '').localeCompare(String(a.createTime ?? '')))[0];
}
