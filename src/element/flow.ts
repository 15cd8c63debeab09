// Internal: one connect flow, from the click to its single terminal event.
// Its state moves only through #enter, by the table in machine.ts (MACHINE);
// what it tells and does on entering each state is machine.ts's EFFECTS, done
// where the move is made (the Node tests hold the flow to that table); once
// the flow has ended nothing moves it. The parts it drives each hold one
// concern: the popup (popup.ts), which messages count (message-gate.ts),
// which connection is the flow's (connection-match.ts), when to poll
// (poller.ts), the requests and their retries (backend-session.ts), and
// everything held until the end (lifetime.ts); its timing is timing.ts's.
import type { Connection, Problem } from '../shared/types.js';
import { isAllowedUrl } from '../shared/url.js';
import { BackendError, connectionPath, toConnections, type RetryPolicy } from './backend.js';
import { BackendSession } from './backend-session.js';
import {
  changedSince,
  changedSinceStart,
  listedBaseline,
  matchesRequest,
  type Baseline,
  type ConnectionRequest,
} from './connection-match.js';
import {
  ConnectError,
  type ConnectCancelReason,
  type ConnectErrorCode,
  type ConnectEventDetails,
  type DetailWithoutProvider,
  type LinkReason,
} from './events.js';
import { failureMessages } from './developer-messages.js';
import { Lifetime } from './lifetime.js';
import { accepts, isBusy, isFinal, transition, type FlowState, type StateName } from './machine.js';
import { judgeMessage, readCompletion } from './message-gate.js';
import { noWindowHere, Popup } from './popup.js';
import { Poller } from './poller.js';
import { pollRetries, SEVERED_POLL, urlRetries } from './timing.js';

export interface FlowConfig {
  endpoint: string;
  /** What the flow asks for: its connection (update), or a provider, workspace and app (create). */
  request: ConnectionRequest;
  provider: string;
  /** oauth-connect's body. */
  body: Record<string, unknown>;
  headers: Record<string, string>;
  pollInterval: number;
  timeout: number;
  closedGrace: number;
  popupWidth: number;
  popupHeight: number;
  /** Space-separated origins. */
  messageOrigins: string;
  popupText: string;
}

export interface FlowHost {
  emit<K extends keyof ConnectEventDetails>(type: K, detail: DetailWithoutProvider<K>): boolean;
  /** The flow's state changed. */
  changed(): void;
  /** A connection (never with credentials) was read. */
  connectionRead(connection: Connection): void;
  /** Misconfiguration, for the developer: one console warning per element. */
  warn(message: string): void;
}

export class Flow {
  readonly promise: Promise<Connection>;
  readonly mode: 'create' | 'update';
  readonly provider: string;
  #state: FlowState = { name: 'idle' };
  #settle!: { resolve(c: Connection): void; reject(e: ConnectError): void };
  #lifetime = new Lifetime();
  #popup: Popup;
  #session: BackendSession;
  #poller: Poller;
  #trustedOrigins: Set<string>;
  #connectionId?: string;
  /** The caller's connections the backend listed when the flow began (undefined: it could not list them). */
  #listedAtStart?: Promise<Baseline | undefined>;
  #lastStatus?: string;
  /** Why no window can open, known before trying: the link way without a doomed window. */
  #noWindow?: LinkReason;
  #host: FlowHost;
  #config: FlowConfig;
  /** Before the URL is known the user looks at a blank popup: retries fit in seconds (a poll's, in a minute). */
  #urlPolicy: RetryPolicy;

  constructor(host: FlowHost, config: FlowConfig) {
    this.#host = host;
    this.#config = config;
    this.mode = config.request.mode;
    this.provider = config.provider;
    this.promise = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    if (config.request.mode === 'update') this.#connectionId = config.request.connectionId;
    this.#trustedOrigins = new Set(config.messageOrigins.split(/\s+/));
    this.#urlPolicy = urlRetries(config.pollInterval);
    this.#popup = new Popup(this.#lifetime, { width: config.popupWidth, height: config.popupHeight });
    this.#session = new BackendSession(this.#lifetime, config.endpoint, config.headers);
    this.#poller = new Poller(this.#lifetime, config.pollInterval, () => this.#poll());
  }

  /** The flow's state, with what it carries. Read-only: it moves only by the table. */
  get state(): FlowState {
    return this.#state;
  }

  get done(): boolean {
    return isFinal(this.#state.name);
  }

  get busy(): boolean {
    return isBusy(this.#state.name);
  }

  /** The error that ended the flow, if one did. */
  get error(): ConnectError | undefined {
    return 'error' in this.#state ? this.#state.error : undefined;
  }

  /** The connection the flow is on, once known (update mode: from the start). */
  get connectionId(): string | undefined {
    return this.#connectionId;
  }

  /** The flow's connection was disconnected (by another element of the page): it ends as a 404 for it would. */
  gone(): void {
    this.fail('http_error', 'the connection no longer exists', { status: 404 });
  }

  /** How many timers, requests and listeners the flow holds (0 once it ended). */
  get held(): number {
    return this.#lifetime.held;
  }

  /**
   * The one place where the state changes, then EFFECTS' event (a listener's act is the last word). `to` comes from
   * `transition()`: only a move of the table compiles; what goes on after checks the state again.
   */
  #enter<K extends keyof ConnectEventDetails>(to: FlowState, event?: K, detail?: DetailWithoutProvider<K>): void {
    this.#state = to;
    if (this.done) this.#lifetime.end();
    this.#host.changed();
    if (event) this.#host.emit(event, detail!);
    if (to.name === 'working') this.#settle.resolve(to.connection);
    else if ('error' in to) this.#settle.reject(to.error);
  }

  #is(...names: StateName[]): boolean {
    return names.includes(this.#state.name);
  }

  /**
   * The popup way's synchronous part, run inside the click, so popup blockers allow the popup. `noWindow`: why an
   * earlier click of this element opened no window; then, as when the page tells it now, the link way at once.
   */
  begin(noWindow?: LinkReason): void {
    const { name } = this.#state;
    if (name !== 'idle') return;
    this.#enter({ name: transition(name, 'start') });
    if (!this.#is('requesting')) return;
    this.#holdUntilEnd();
    this.#lifetime.listen(window, 'message', (event) => this.#onMessage(event as MessageEvent));
    this.#noWindow = noWindowHere() ?? noWindow;
    if (!this.#noWindow) this.#popup.openBlank(this.#config.popupText);
    this.#watchPopup();
    this.#listedAtStart = this.#read(this.#connectionId, this.#urlPolicy).then(listedBaseline, () => undefined);
    void this.#requestUrl();
  }

  /**
   * What the caller had when the flow began: the connection (update) or their own of the provider (create), as the
   * backend listed them; or, when it could not, the backend's clock at its first answer, read when judged.
   */
  async #baselineNow(): Promise<Baseline> {
    return (await this.#listedAtStart) ?? { clock: this.#session.firstAnswerAt };
  }

  /** The form way (EFFECTS.submitting): the typed credential sent, then the connection the backend answers verified. */
  submit(credential: Record<string, unknown>): void {
    const { name } = this.#state;
    if (name !== 'idle') return;
    this.#enter({ name: transition(name, 'submit') });
    if (!this.#is('submitting')) return;
    this.#holdUntilEnd();
    void this.#sendCredential(credential);
  }

  /** What every running flow holds until it ends: its time limit, and the page's visibility and unload. */
  #holdUntilEnd(): void {
    // A reload or navigation would leave the popup open and its outcome lost.
    this.#lifetime.listen(window, 'pagehide', () => this.cancel('cancelled'));
    this.#lifetime.listen(document, 'visibilitychange', () => document.hidden || this.#poller.pageShown());
    this.#lifetime.setTimer(() => this.fail('timeout', 'timed out'), this.#config.timeout);
  }

  /** The request before the connection is known: update, PATCH the connection + `suffix`; create, POST `createPath`. */
  #send(suffix: string, createPath: string, fields?: Record<string, unknown>): Promise<unknown> {
    return this.mode === 'update'
      ? this.#session.retrying('PATCH', connectionPath(this.#connectionId!) + suffix, this.#urlPolicy, fields)
      : this.#session.retrying('POST', createPath, this.#urlPolicy, { ...this.#config.body, ...fields });
  }

  async #sendCredential(credential: Record<string, unknown>): Promise<void> {
    let answer: unknown;
    try {
      answer = await this.#send('', '/connections', credential);
    } catch (error) {
      return this.#failWith(error);
    }
    const [connection] = toConnections([answer]);
    if (!connection) return this.fail('http_error', 'the backend answered no connection');
    this.#found(connection.id, connection);
  }

  /** connect-start was cancelled: the flow never ran, and says nothing more (no event). */
  withdraw(): void {
    const { name } = this.#state;
    const error = new ConnectError('cancelled', 'connect-start was cancelled');
    if (name === 'idle') this.#enter({ name: transition(name, 'cancel'), error });
  }

  cancel(reason: ConnectCancelReason): void {
    const { name } = this.#state;
    if (!accepts(name, 'cancel')) return;
    const error = new ConnectError(reason, reason);
    this.#enter({ name: transition(name, 'cancel'), error }, 'connect-cancel', { reason });
  }

  fail(code: ConnectErrorCode, message: string, problem?: Problem, connection?: Connection): void {
    const { name } = this.#state;
    if (!accepts(name, 'fail')) return;
    const error = new ConnectError(code, message, problem, connection);
    const detail = { code, message, problem, connection };
    if (code !== 'bad_credentials')
      this.#enter({ name: transition(name, 'fail'), error, from: name }, 'connect-error', detail);
    else if (name === 'verifying') this.#enter({ name: transition(name, 'refused'), error }, 'connect-error', detail);
  }

  /** The fallback button's click: opens the popup the browser blocked. */
  openBlocked(): void {
    const state = this.#state;
    if (state.name !== 'blocked') return;
    // A real click that still opens nothing: popups are impossible here (a sandboxed frame, a strict setting).
    if (!this.#popup.open(state.url)) return this.#showLink(state.url, 'blocked');
    this.#enter({ name: transition(state.name, 'opened') }, 'connect-popup', { url: state.url });
    this.#watchPopup();
  }

  /** The link way (EFFECTS.linked): no window can open, so the element shows the link; the backend is asked as severed. */
  #showLink(url: string, reason: LinkReason): void {
    const { name } = this.#state;
    if (!accepts(name, 'link')) return;
    if (reason !== 'webview')
      this.#host.warn("no popup can open: an iframe's sandbox needs allow-popups and allow-popups-to-escape-sandbox");
    this.#enter({ name: transition(name, 'link'), url, reason }, 'connect-link', { url, reason });
    if (this.#is('linked')) this.#poller.pollNow();
  }

  /** The "stop waiting" control: a severed popup closed on purpose, or the link way given up. */
  stopWaiting(): void {
    if (this.#is('severed')) this.cancel('popup_closed');
    if (this.#is('linked')) this.cancel('cancelled');
  }

  /** Watches the popup from the moment it opens until the flow knows its connection. */
  #watchPopup(): void {
    this.#popup.watch(
      () => this.#is('requesting', 'authorizing'),
      () => this.#popupClosed(),
    );
  }

  /** The popup reads closed: requesting, a plain cancel; authorizing, severed (EFFECTS says why). */
  #popupClosed(): void {
    const { name } = this.#state;
    if (name === 'requesting') return this.cancel('popup_closed');
    if (name !== 'authorizing') return;
    this.#enter({ name: transition(name, 'closed') });
    if (!this.#is('severed')) return;
    this.#lifetime.setTimer(() => this.stopWaiting(), this.#config.closedGrace);
    this.#poller.pollNow();
  }

  #onMessage(event: MessageEvent): void {
    const completion = readCompletion(event.data);
    const verdict = judgeMessage(completion, {
      fromOwnPopup: this.#popup.isSource(event.source),
      trustedOrigin: this.#trustedOrigins.has(event.origin),
      waiting: this.#is('authorizing', 'severed'),
      knownId: this.#connectionId,
    });
    if (verdict === 'fail') this.fail('authorization_failed', (completion as { error: string }).error);
    else if (verdict !== 'ignore') {
      const { connectionId } = completion as { connectionId: string };
      if (verdict === 'take') this.#found(connectionId);
      else void this.#confirmClaim(connectionId);
    }
  }

  /**
   * A success claimed by a trusted origin's window that is not this flow's popup: the backend must confirm that it
   * is the caller's own connection, as this flow asked for it, changed since the flow began.
   */
  async #confirmClaim(id: string): Promise<void> {
    try {
      const [connection] = await this.#read(id);
      const baseline = await this.#baselineNow();
      if (connection?.id !== id || !this.#takes(connection, baseline)) return;
      // The same person's, not a coworker's: a backend with the list route tells its caller's own (create mode).
      if ('listed' in baseline && !this.#connectionId && !(await this.#read(undefined)).some((c) => c.id === id))
        return;
      this.#found(id, connection);
    } catch {
      // not confirmed: ignored
    }
  }

  /** A connection the flow may take as its own: the one it asked for, changed since it began. */
  #takes(connection: Connection, baseline: Baseline): boolean {
    return matchesRequest(connection, this.#config.request) && changedSince(connection, baseline);
  }

  /** The flow's connection is known: verify it, polling quickly at first. */
  #found(id: string, connection?: Connection): void {
    const { name } = this.#state;
    if (!accepts(name, 'found')) return;
    this.#connectionId = id;
    this.#poller.startQuick();
    this.#enter({ name: transition(name, 'found') }, 'connect-connection', { connectionId: id });
    if (connection) this.#verify(connection);
    else this.#poller.pollNow();
  }

  async #requestUrl(): Promise<void> {
    let answer: unknown;
    try {
      answer = await this.#send(':oauth-update', '/oauth-connect');
    } catch (error) {
      return this.#failWith(error);
    }
    const { name } = this.#state;
    if (name !== 'requesting') return;
    const record = answer as { url?: unknown; messageOrigin?: unknown } | null;
    const url = typeof answer === 'string' ? answer : record?.url;
    if (!isAllowedUrl(url)) return this.fail('invalid_url', 'no https URL');
    // Compared as is with event.origin: anything but an origin never matches.
    this.#trustedOrigins.add(record?.messageOrigin as string);
    if (this.#noWindow) return this.#showLink(url, this.#noWindow);
    if (!this.#popup.opened)
      return this.#enter({ name: transition(name, 'blocked'), url }, 'connect-popup-blocked', { url });
    // Closed while the backend answered: the user gave up; no connect-popup for a closed window.
    if (this.#popup.closed) return this.cancel('popup_closed');
    this.#popup.navigate(url);
    this.#enter({ name: transition(name, 'opened') }, 'connect-popup', { url });
  }

  /**
   * The connection `id` as a list of one, or without an ID the caller's own connections to the provider (the
   * backend narrows to the consumer it identified), without credentials.
   */
  async #read(id: string | undefined, policy?: RetryPolicy): Promise<Connection[]> {
    const path = id ? connectionPath(id) : `/connections?provider=${encodeURIComponent(this.provider)}&own=true`;
    const answer = await (policy ? this.#session.retrying('GET', path, policy) : this.#session.request('GET', path));
    return toConnections(([] as unknown[]).concat(answer));
  }

  /** One poll: while severed, has the caller's own matching connection appeared or changed? Once known, its status. */
  async #poll(): Promise<void> {
    const id = this.#connectionId;
    let connections: Connection[];
    try {
      connections = await this.#read(id, pollRetries(this.#config.pollInterval));
    } catch (error) {
      return this.#failWith(error);
    }
    if (this.#is('severed', 'linked')) {
      const baseline = await this.#baselineNow();
      if (!this.#is('severed', 'linked')) return this.#poller.pollNow();
      const found = connections.find((c) => this.#takes(c, baseline));
      if (found) this.#found(found.id, found);
      // A backend with no list route cannot tell of a new connection: then only messages and the grace remain.
      else if (id || 'listed' in baseline) this.#poller.pollAfter(SEVERED_POLL);
    } else if (this.#is('verifying') && id) this.#verify(connections[0]);
    else if (this.busy) this.#poller.pollNow();
  }

  #verify(connection: Connection | undefined): void {
    if (!this.#is('verifying')) return;
    if (!connection) return this.fail('http_error', 'the backend answered no connection');
    this.#host.connectionRead(connection);
    // An update by form: the connection's status counts once the platform changed it after the flow began.
    if (!changedSinceStart(connection, this.#config.request)) return this.#poller.pollAgain();
    const status = connection.status;
    if (status !== this.#lastStatus) {
      this.#lastStatus = status;
      this.#host.emit('connect-status', { status, connection });
      // A listener may have ended the flow.
      if (!this.#is('verifying')) return;
    }
    if (status === 'working')
      this.#enter({ name: transition('verifying', 'working'), connection }, 'connect-success', { connection });
    else if (status === 'bad_credentials')
      this.fail('bad_credentials', 'the provider did not accept the sign-in', undefined, connection);
    else this.#poller.pollAgain();
  }

  /** A request failed for good (the session throws BackendErrors only). */
  #failWith(failure: unknown): void {
    const error = failure as BackendError;
    for (const message of failureMessages(error, this.#config.endpoint, this.#session.unreached, navigator.onLine))
      this.#host.warn(message);
    // Retries given up on: network_error (docs/element.md's error codes), with what the backend said when it answered.
    this.fail(error.retryable ? 'network_error' : error.code, error.message, error.problem);
  }
}
