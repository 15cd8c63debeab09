// Internal: what the page reads of the caller's connections and of
// providers, shared by the page's elements: elements that ask at once (a
// settings page with N elements) share one list request per endpoint, and a
// provider is asked once per endpoint per page. A flow's outcome or a
// disconnect is told to the endpoint's other elements without a request.
import type { Connection } from '../shared/types.js';
import type { BrowserProvider } from '../shared/provider.js';
import { parseUrl } from '../shared/url.js';
import { BackendError, baseOf, callBackend, toConnections } from './backend.js';

/** The caller's connections, or null when the backend could not tell (no list route, an error). */
export type ConnectionList = Connection[] | null;

/** What changed: a connection a flow made or updated, or one that was disconnected. */
export type ConnectionChange = { connection: Connection } | { removed: string };

/** List reads in flight, by endpoint: asked once, shared by every element that asks meanwhile. */
const lists = new Map<string, Promise<Connection[] | null>>();
const providers = new Map<string, Promise<BrowserProvider | null>>();
const listeners = new Set<(endpoint: string, change: ConnectionChange) => void>();
const warned = new Set<string>();
/** Connections disconnected on this page: a read asked before the disconnect may still list them. */
const removed = new Set<string>();
const READ_TIMEOUT = 15000;

/** The key of an endpoint: its absolute URL, so `/api/connect` and `/api/connect/` are one. */
export function endpointKey(endpoint: string): string {
  const url = parseUrl(endpoint, document.baseURI);
  return url ? baseOf(url.href) : endpoint;
}

/**
 * A read through the endpoint, shared: the one in `reads` under `key`, else a new one, read by `accept` (null when
 * the backend could not tell). A hand-written backend without the route is warned of once per endpoint.
 */
function shared<T>(
  reads: Map<string, Promise<T | null>>,
  key: string,
  endpoint: string,
  path: string,
  headers: Record<string, string>,
  accept: (answer: unknown) => T | null,
): Promise<T | null> {
  let read = reads.get(key);
  if (!read) {
    read = callBackend({ endpoint, method: 'GET', path, headers, signal: AbortSignal.timeout(READ_TIMEOUT) }).then(
      ({ data }) => accept(data),
      (error) => {
        const base = endpointKey(endpoint);
        if (error instanceof BackendError && error.notBackend && !warned.has(base)) {
          warned.add(base);
          console.warn(
            `<connect-provider>: ${error.message}; without this route the element cannot show the connection`,
          );
        }
        return null;
      },
    );
    reads.set(key, read);
  }
  return read;
}

/** The caller's connections through the endpoint (a read in flight is shared). */
export function readConnections(endpoint: string, headers: Record<string, string>): Promise<ConnectionList> {
  const key = endpointKey(endpoint);
  const read = shared(lists, key, endpoint, '/connections', headers, (answer) =>
    Array.isArray(answer) ? toConnections(answer).filter((c) => !removed.has(c.id)) : null,
  );
  // Only a read in flight is shared: the next one asks again.
  void read.then(() => lists.delete(key));
  return read;
}

/** Tells the endpoint's elements what a flow or a disconnect changed. */
export function announce(endpoint: string, change: ConnectionChange): void {
  const key = endpointKey(endpoint);
  if ('removed' in change) removed.add(change.removed);
  for (const listener of listeners) listener(key, change);
}

/** Calls back when a connection of an endpoint changed; returns the unsubscribe. */
export function onConnectionChange(listener: (endpoint: string, change: ConnectionChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A provider's info read otherwise (the integrations route): the endpoint's elements need not ask for it. */
export function knownProvider(endpoint: string, info: BrowserProvider): void {
  providers.set(`${endpointKey(endpoint)} ${info.name}`, Promise.resolve(info));
}

/** The provider's name, icon and inputs through the endpoint, or null when the backend could not tell. */
export function readProvider(
  endpoint: string,
  provider: string,
  headers: Record<string, string>,
): Promise<BrowserProvider | null> {
  return shared(
    providers,
    `${endpointKey(endpoint)} ${provider}`,
    endpoint,
    `/providers/${encodeURIComponent(provider)}`,
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
