// Internal: what the page reads of the caller's connections and of
// providers, shared by the page's elements: elements that ask at once (a
// settings page with N elements) share one list request per endpoint, and a
// provider is asked once per endpoint per page. A flow's outcome or a
// disconnect is told to the endpoint's other elements without a request.
import type { Connection } from '../shared/types.js';
import type { BrowserProvider } from '../shared/provider.js';
import { withoutCredentials } from '../shared/credentials.js';
import { BackendError, baseOf, callBackend } from './backend.js';

/** The caller's connections, or null when the backend could not tell (no list route, an error). */
export type ConnectionList = Connection[] | null;

/** What changed: a connection a flow made or updated, or one that was disconnected. */
export type ConnectionChange = { connection: Connection } | { removed: string };

/** List reads in flight, by endpoint: asked once, shared by every element that asks meanwhile. */
const lists = new Map<string, Promise<ConnectionList>>();
const providers = new Map<string, Promise<BrowserProvider | null>>();
const listeners = new Set<(endpoint: string, change: ConnectionChange) => void>();
const warned = new Set<string>();
const READ_TIMEOUT = 15000;

/** The key of an endpoint: its absolute URL, so `/api/connect` and `/api/connect/` are one. */
export function endpointKey(endpoint: string): string {
  try {
    return baseOf(new URL(endpoint, document.baseURI).href);
  } catch {
    return endpoint;
  }
}

async function get(endpoint: string, path: string, headers: Record<string, string>): Promise<unknown> {
  return (await callBackend({ endpoint, method: 'GET', path, headers, signal: AbortSignal.timeout(READ_TIMEOUT) }))
    .data;
}

/** A hand-written backend without the routes: said once per endpoint, then quiet. */
function warnOnce(endpoint: string, error: unknown): void {
  const key = endpointKey(endpoint);
  if (!(error instanceof BackendError && error.notBackend) || warned.has(key)) return;
  warned.add(key);
  console.warn(`<connect-provider>: ${error.message}; without this route the element cannot show the connection`);
}

/** The caller's connections through the endpoint (a read in flight is shared). */
export function readConnections(endpoint: string, headers: Record<string, string>): Promise<ConnectionList> {
  const key = endpointKey(endpoint);
  let read = lists.get(key);
  if (!read) {
    read = get(endpoint, '/connections', headers).then(
      (answer) =>
        Array.isArray(answer)
          ? answer
              .filter((c): c is Connection => !!c && typeof c === 'object' && typeof c.id === 'string')
              .map(withoutCredentials)
          : null,
      (error) => {
        warnOnce(endpoint, error);
        return null;
      },
    );
    lists.set(key, read);
    void read.then(() => lists.delete(key));
  }
  return read;
}

/** Tells the endpoint's elements what a flow or a disconnect changed. */
export function announce(endpoint: string, change: ConnectionChange): void {
  const key = endpointKey(endpoint);
  for (const listener of listeners) listener(key, change);
}

/** Calls back when a connection of an endpoint changed; returns the unsubscribe. */
export function onConnectionChange(listener: (endpoint: string, change: ConnectionChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The provider's name, icon and inputs through the endpoint, or null when the backend could not tell. */
export function readProvider(
  endpoint: string,
  provider: string,
  headers: Record<string, string>,
): Promise<BrowserProvider | null> {
  const key = `${endpointKey(endpoint)} ${provider}`;
  let read = providers.get(key);
  if (!read) {
    read = get(endpoint, `/providers/${encodeURIComponent(provider)}`, headers).then(
      (answer) =>
        answer && typeof answer === 'object' && (answer as BrowserProvider).name === provider ? answer : null,
      (error) => {
        warnOnce(endpoint, error);
        return null;
      },
    ) as Promise<BrowserProvider | null>;
    providers.set(key, read);
  }
  return read;
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
