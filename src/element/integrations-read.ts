// Internal: the list's read. The integrations and the caller's connections are asked at once (one round trip), when
// the list's endpoint or providers change, and again when what failed may pass now (`online`, the page shown again)
// or on Try again. An answer to any but the latest read is dropped. A failure is told to the page and, when it is the
// developer's to fix, to the console once, naming the route and what it answered.
import type { ReactiveController, ReactiveElement } from 'lit';
import { BackendError, baseOf } from './backend.js';
import { notBackendMessage, notOfferedFix, warnOnce } from './developer-messages.js';
import type { ConnectIntegrationsErrorDetail, IntegrationEntry } from './integrations-events.js';
import type { IntegrationsStrings } from './integrations-strings.js';
import { Lifetime } from './lifetime.js';
import {
  connectionsFailure,
  knownProvider,
  readConnections,
  requestAtRest,
  sharesConnections,
  warnsItself,
  type ConnectionList,
} from './page-reads.js';

/** What the list knows of the caller's connections: being read, read, not readable, or refused 401. */
export type ConnectionsRead = 'reading' | 'read' | 'unknown' | 'signed-out';

/** What the read needs of the list element. */
export interface ListHost extends ReactiveElement {
  endpoint: string;
  providers: string;
  requestHeaders?: Record<string, string>;
}

/** What the read tells its list: the list could not be read; the caller's connections answered. */
export interface ListOutcomes {
  failed(error: ConnectIntegrationsErrorDetail): void;
  /** A list; null: the backend cannot tell; undefined: the read failed (then `error` says why). */
  answered(list: ConnectionList, previous: ConnectionsRead, error?: ConnectIntegrationsErrorDetail): void;
}

export class IntegrationsRead implements ReactiveController {
  /** The rows, once read: undefined while reading. */
  entries?: IntegrationEntry[];
  /** The list could not be read (and has no rows from an earlier read): the text that says why. */
  failure?: keyof IntegrationsStrings;
  /** What the list knows of the caller's connections. */
  connections: ConnectionsRead = 'reading';
  #host: ListHost;
  #outcomes: ListOutcomes;
  /** Counts reads: an answer to any but the latest is dropped. */
  #readId = 0;
  /** The developer's messages, each said once. */
  #warn = warnOnce('connect-integrations');
  /** What the read listens to while its list is in the page. */
  #connected?: Lifetime;

  constructor(host: ListHost, outcomes: ListOutcomes) {
    (this.#host = host).addController(this);
    this.#outcomes = outcomes;
  }

  hostConnected(): void {
    const connected = (this.#connected = new Lifetime());
    connected.listen(window, 'online', this.#readIfFailed);
    connected.listen(document, 'visibilitychange', this.#readIfFailed);
  }

  hostDisconnected(): void {
    this.#connected?.end();
  }

  /** The rows, the failure or the connections changed: the list renders again. */
  #set(changes: Partial<Pick<IntegrationsRead, 'entries' | 'failure' | 'connections'>>): void {
    Object.assign(this, changes);
    this.#host.requestUpdate();
  }

  /** What failed may pass now (back online, the page shown again): the list reads again. */
  #readIfFailed = (): void => {
    if (document.hidden) return;
    if (this.failure || this.connections === 'unknown' || this.connections === 'signed-out') void this.read();
  };

  /**
   * A failed read as the events tell it, and the developer's message when it is theirs to fix (a page that is not the
   * connect backend's, a 401, 403, 404 or 405, a misconfigured backend): the route and what it answered.
   */
  #describe(error: unknown, path: string): ConnectIntegrationsErrorDetail {
    const route = `GET ${baseOf(this.#host.endpoint)}${path}`;
    if (!(error instanceof BackendError)) return { code: 'network_error', message: `${route} failed` };
    const status = error.problem?.status;
    const what = error.problem?.detail || error.problem?.title || error.message;
    let message = `${route} answered ${status}: ${what}`;
    if (error.code === 'network_error') message = `${route} could not be reached: ${error.message}`;
    else if (error.notBackend) message = notBackendMessage(error, this.#host.endpoint);
    else if (status === 401) message = `${route} answered 401: is the user signed in?`;
    else if (status === 404 || status === 405)
      message = `${route} answered ${status}: ${what}; does the handler serve this route (a connect-provider server of this version)?`;
    else if (status === 403) message = `${route} answered 403: ${what}; does authorize() let this user in?`;
    const yours =
      error.notBackend || [401, 403, 404, 405].includes(status ?? 0) || (!error.retryable && status === 500);
    if (yours) this.#warn(message);
    return { code: error.code, message, ...(error.problem ? { problem: error.problem } : {}) };
  }

  /** Reads the integrations and the caller's connections at once (one round trip), and tells the list. */
  async read(): Promise<void> {
    const id = ++this.#readId;
    const { endpoint, requestHeaders } = this.#host;
    if (!endpoint) {
      const message = 'the endpoint attribute is required';
      this.#warn(message);
      this.#set({ failure: 'notSetUp' });
      this.#outcomes.failed({ code: 'invalid_config', message });
      return;
    }
    // The list names this endpoint's routes itself when they are missing: the rows' shared reads need not.
    warnsItself(endpoint);
    const headers = { ...requestHeaders };
    const named = this.#host.providers.split(/\s+/).filter(Boolean);
    // Both requests leave now: the connections read is the one the rows share (page-reads.ts).
    const integrations = requestAtRest(endpoint, headers, 'GET', '/integrations').then(
      (data) => ({ data }),
      (error: unknown) => ({ error }),
    );
    // After a failure, a read another element asked before (it may have left before the user signed in) is not the
    // last word: once it failed, the list asks again.
    const stale = this.connections !== 'read' && this.connections !== 'reading' && sharesConnections(endpoint);
    const connections = readConnections(endpoint, headers).then((list) =>
      stale && list === undefined ? readConnections(endpoint, headers) : list,
    );
    const answer = await integrations;
    if (id !== this.#readId) return;
    let entries: IntegrationEntry[] | undefined;
    if ('data' in answer) {
      const { data } = answer;
      entries = (Array.isArray(data) ? data : []).filter(
        (e): e is IntegrationEntry => !!e && typeof e === 'object' && typeof e.provider === 'string' && !!e.provider,
      );
      // The attribute narrows and orders; a name the route does not list gets no row (and the developer a word).
      if (named.length) {
        const listed = entries;
        entries = named.flatMap((name) => listed.filter((e) => e.provider === name).slice(0, 1));
        for (const name of named)
          if (!entries.some((e) => e.provider === name))
            this.#warn(
              `the providers attribute names "${name}", which GET ${baseOf(endpoint)}/integrations does not list, so it has no row: ${notOfferedFix(name)}, and the project must have an integration of it`,
            );
      }
      // The rows need not ask for what the list already read.
      for (const entry of entries) if (entry.name === entry.provider) knownProvider(endpoint, entry);
    } else {
      const { error } = answer;
      const status = error instanceof BackendError ? error.problem?.status : undefined;
      // A backend without the route (a 404 or 405): the named providers are the rows, each read through the
      // providers route, unless the connections route is missing too (not a connect backend at all).
      if (named.length && (status === 404 || status === 405)) {
        const list = await connections;
        if (id !== this.#readId) return;
        if (list !== null || !connectionsFailure(endpoint)?.notBackend)
          entries = named.map((provider) => ({ provider, name: provider }));
      }
      if (!entries) {
        const detail = this.#describe(error, '/integrations');
        // Read again, a failure leaves the rows shown (their state, any flow) as they were.
        if (!this.entries)
          this.#set({
            failure:
              status === 401
                ? 'signedOutList'
                : (error as BackendError).notBackend || [403, 404, 405].includes(status ?? 0)
                  ? 'notSetUp'
                  : 'loadFailed',
          });
        this.#outcomes.failed(detail);
        return;
      }
    }
    this.#set({ failure: undefined, entries });
    const list = await connections;
    if (id !== this.#readId) return;
    const failure = list ? undefined : connectionsFailure(endpoint);
    const previous = this.connections;
    this.#set({ connections: list ? 'read' : failure?.problem?.status === 401 ? 'signed-out' : 'unknown' });
    const error =
      list === undefined || failure
        ? this.#describe(failure ?? new BackendError('network_error', 'no answer', true), '/connections')
        : undefined;
    this.#outcomes.answered(list, previous, error);
  }
}
