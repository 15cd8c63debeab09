// Internal: the caller's connection at rest and the provider's info, read when the element's endpoint, provider or
// connection change, read again when that may now pass (`online`, a page shown again), and followed without a request
// when another element of the page changes a connection of the same endpoint. An answer to any but the latest read
// is dropped. Reflected on the host as the `connection-status` attribute.
import type { ReactiveController, ReactiveElement } from 'lit';
import type { BrowserProvider } from '../shared/provider.js';
import { signInOf, type SignIn } from '../shared/sign-in.js';
import type { Connection } from '../shared/types.js';
import { absoluteEndpoint } from './backend.js';
import type { Flow } from './flow.js';
import { Lifetime } from './lifetime.js';
import {
  announce,
  onConnectionChange,
  pickConnection,
  readConnections,
  readProvider,
  type ConnectionChange,
  type ConnectionList,
} from './page-reads.js';
import { NEUTRAL_FOR, STALE_AFTER_HIDDEN } from './timing.js';

/** What the rest state reads of its element. */
export interface RestHost extends ReactiveElement {
  endpoint: string;
  provider: string;
  connectionId?: string;
  providerWorkspaceRef?: string;
  requestHeaders?: Record<string, string>;
}

/** Writes an attribute on the host, or removes it when there is no value. */
export function reflect(host: Element, name: string, value?: string): void {
  if (value) host.setAttribute(name, value);
  else host.removeAttribute(name);
}

export class RestState implements ReactiveController {
  /** The caller's connection at rest: undefined while unknown, null when none. */
  existing?: Connection | null;
  /** The provider's info: undefined while read, null when the backend has none. */
  info?: BrowserProvider | null;
  /** The connection is being read, for less than NEUTRAL_FOR ms: the button is neutral and busy. */
  reading = false;
  /** The last read failed though that may pass: read again on `online`, when shown, and on a click. */
  failed = false;
  /** The last connection a flow read (it may be newer than `existing`). */
  fromFlow?: Connection;
  #host: RestHost;
  /** The running flow, if any: a change of its connection elsewhere ends it; else the rest state follows it. */
  #running: () => Flow | undefined;
  /** Tells the page the connection was read (null: none). */
  #loaded: (connection: Connection | null) => void;
  /** What the rest state listens to while its element is in the page. */
  #connected?: Lifetime;
  #hiddenAt?: number;
  /** Counts reads: an answer to any but the latest is dropped. */
  #readId = 0;

  constructor(host: RestHost, running: () => Flow | undefined, loaded: (connection: Connection | null) => void) {
    (this.#host = host).addController(this);
    this.#running = running;
    this.#loaded = loaded;
  }

  hostConnected(): void {
    const connected = (this.#connected = new Lifetime());
    connected.onEnd(onConnectionChange((key, change) => this.#onConnectionChange(key, change)));
    connected.listen(document, 'visibilitychange', () => this.#onVisibility());
    connected.listen(window, 'online', () => this.#readIfFailed());
  }

  hostDisconnected(): void {
    this.#connected?.end();
  }

  /** The caller's connection (at rest, or the last a flow saw). */
  get connection(): Connection | undefined {
    return this.fromFlow ?? this.existing ?? undefined;
  }

  /** The info read for `provider`, if the last read was of it (a flow's provider may no longer be the element's). */
  infoOf(provider: string): BrowserProvider | undefined {
    return this.info?.name === provider ? this.info : undefined;
  }

  /** The provider's info, once read for the element's provider. */
  get providerInfo(): BrowserProvider | undefined {
    return this.infoOf(this.#host.provider);
  }

  /** How the element's provider signs in: by its info once read; without one, through the popup. */
  get signIn(): SignIn {
    return signInOf(this.providerInfo);
  }

  /** The connection a click updates (`connection-id`, or the one found at rest); none: a click creates one. */
  get updating(): string | undefined {
    return this.#host.connectionId || this.existing?.id;
  }

  /** A flow runs. */
  get busy(): boolean {
    return !!this.#running();
  }

  /**
   * Reads the caller's connection and the provider's info; resolves once both answered, or after NEUTRAL_FOR ms
   * without them. Until then the button is neutral.
   */
  read(): Promise<unknown> {
    const host = this.#host;
    const { endpoint, provider, connectionId } = host;
    // Unknown until this read answers (an answer to an earlier one is dropped).
    this.#show(undefined);
    const id = this.#readId;
    this.fromFlow = undefined;
    this.failed = false;
    if (!endpoint || (!provider && !connectionId)) return Promise.resolve();
    const headers = { ...host.requestHeaders };
    this.reading = true;
    const reads = [
      readConnections(endpoint, headers).then((list) => id === this.#readId && this.#answered(list)),
      provider &&
        readProvider(endpoint, provider, headers).then((info) => {
          if (id !== this.#readId) return;
          this.info = info;
          this.failed ||= info === undefined;
          host.requestUpdate();
        }),
    ];
    if (provider) this.info = undefined;
    host.requestUpdate();
    return new Promise((answered) => {
      setTimeout(answered, NEUTRAL_FOR);
      void Promise.all(reads).then(answered);
    }).then(() => {
      if (id !== this.#readId) return;
      this.reading = false;
      host.requestUpdate();
    });
  }

  /** The rest state follows a flow's outcome, with no request; the page's other elements hear of it. */
  follow(flow: Flow): void {
    const { state, error } = flow;
    const { endpoint } = this.#host;
    // A 404 for the flow's own connection: it is gone (disconnected elsewhere), and the element says so.
    const gone = error?.code === 'http_error' && error.problem?.status === 404 && flow.connectionId;
    if (gone) {
      this.#show(null);
      announce(endpoint, { removed: gone });
    }
    const connection = state.name === 'working' ? state.connection : error?.connection;
    if (!connection) return;
    this.#show(connection);
    announce(endpoint, { connection });
  }

  /** The connection was disconnected: none at rest, and the page's other elements hear of it. */
  removed(connection: Connection): void {
    this.#show(null);
    this.fromFlow = undefined;
    announce(this.#host.endpoint, { removed: connection.id });
  }

  /** A read that failed though it may pass is read again (on `online`, when the page is shown). */
  #readIfFailed(): void {
    if (this.failed && !this.busy) void this.read();
  }

  /** The rest state follows a change newer than any read in flight: that read's answer is dropped. */
  #show(connection: Connection | null | undefined): void {
    this.#readId++;
    this.existing = connection;
    this.#reflect();
  }

  #onVisibility(): void {
    if (document.hidden) this.#hiddenAt = Date.now();
    else if (this.#hiddenAt && Date.now() - this.#hiddenAt >= STALE_AFTER_HIDDEN) void this.read();
    else this.#readIfFailed();
  }

  /** Another element's flow or disconnect changed a connection of the endpoint: follow it, with no request. */
  #onConnectionChange(key: string, change: ConnectionChange): void {
    const { endpoint, provider, connectionId, providerWorkspaceRef } = this.#host;
    if (!endpoint || key !== absoluteEndpoint(endpoint)) return;
    const flow = this.#running();
    if (flow) {
      // A flow on a connection another element disconnected ends now, its popup closed before it lands on an error.
      if ('removed' in change && change.removed === flow.connectionId) flow.gone();
      return;
    }
    if ('removed' in change) {
      if (this.existing?.id === change.removed) this.#show(null);
    } else if (pickConnection([change.connection], provider, connectionId, providerWorkspaceRef))
      this.#show(change.connection);
  }

  /**
   * The read answered: the list of the caller's connections; null when the backend cannot tell (no list route),
   * undefined when the read failed though it may pass.
   */
  #answered(list: ConnectionList): void {
    const { provider, connectionId, providerWorkspaceRef } = this.#host;
    this.failed ||= list === undefined;
    const found = list ? (pickConnection(list, provider, connectionId, providerWorkspaceRef) ?? null) : undefined;
    this.existing = found;
    this.fromFlow = undefined;
    this.#reflect();
    if (found !== undefined) this.#loaded(found);
  }

  /** `none` once read without a connection; no attribute while unknown. */
  #reflect(): void {
    reflect(this.#host, 'connection-status', this.existing === null ? 'none' : this.existing?.status);
    this.#host.requestUpdate();
  }
}
