// Internal: one connect flow, from the click to its single terminal event.
// Its state moves only through #go, by the table in machine.ts; once the flow
// has ended nothing moves it. Everything it holds (timers, listeners,
// requests) is registered here and released at the end, whatever ends it.
import type { Connection, Problem } from '../shared/types.js';
import { isAllowedUrl } from '../shared/url.js';
import { BackendError, callBackend, connectionPath, retryDelay, toConnections, type RetryPolicy } from './backend.js';
import { ConnectError, type ConnectCancelReason, type ConnectErrorCode, type ConnectEventDetails } from './events.js';
import { isFinal, next, type FlowInput, type FlowState } from './machine.js';
import { closePopup, isClosed, openPopup, popupName, readCompletion, writePlaceholder } from './popup.js';

export interface FlowConfig {
  endpoint: string;
  mode: 'create' | 'update';
  provider: string;
  connectionId: string | undefined;
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
  emit<K extends keyof ConnectEventDetails>(type: K, detail: ConnectEventDetails[K]): boolean;
  /** The flow's state changed. */
  changed(): void;
  /** A connection (never with credentials) was read. */
  saw(connection: Connection): void;
  /** Misconfiguration, for the developer: one console warning per element. */
  warn(message: string): void;
}

const REQUEST_TIMEOUT = 15000;
/** Ms of retries for a backend that never answered once. */
const UNREACHED_BUDGET = 3000;
const HIDDEN_SLOWDOWN = 5;
const CLOSED_CHECK = 250;
/** Polls at QUICK_STEP x poll-interval right after the connection is known, before slowing down. */
const QUICK_POLLS = 5;
const QUICK_STEP = 0.3;
/** While a severed popup is awaited, the backend is asked every SEVERED_STEP x poll-interval. */
const SEVERED_STEP = 2;

/** What "changed since the flow began" is judged by: the platform's own times. */
const stamp = (c: Connection) => c.updateTime ?? c.createTime;

export class Flow {
  state: FlowState = 'idle';
  /** The state the flow was in when it ended (a time-out while verifying reads differently). */
  endedIn?: FlowState;
  /** The URL of a blocked popup, for the fallback button. */
  blockedUrl?: string;
  /** The error that ended the flow, if one did. */
  error?: ConnectError;
  readonly promise: Promise<Connection>;
  readonly mode: 'create' | 'update';
  readonly provider: string;
  #settle!: { resolve(c: Connection): void; reject(e: ConnectError): void };
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #controllers = new Set<AbortController>();
  #cleanups: Array<() => void> = [];
  #popup: Window | null = null;
  #name = popupName();
  #origins: Set<string>;
  #id?: string;
  /** The caller's own connections when the flow began (id -> stamp), or undefined when the backend could not tell. */
  #known?: Promise<Map<string, string> | undefined>;
  #lastStatus?: string;
  #quick = 0;
  #pollTimer?: ReturnType<typeof setTimeout>;
  #polling = false;
  /** The backend's clock (Date header) at its first answer: the fallback baseline when it has no list route. */
  #since = NaN;
  #host: FlowHost;
  #config: FlowConfig;
  /** Before the URL is known the user looks at a blank popup: retries fit in seconds. */
  #urlPolicy: RetryPolicy;
  #pollPolicy: RetryPolicy;

  constructor(host: FlowHost, config: FlowConfig) {
    this.#host = host;
    this.#config = config;
    this.mode = config.mode;
    this.provider = config.provider;
    this.promise = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    this.#origins = new Set(config.messageOrigins.split(/\s+/));
    this.#id = config.connectionId;
    const baseMs = config.pollInterval;
    this.#urlPolicy = { baseMs, maxFailures: 5, maxDelayMs: 4000, budgetMs: 8000 };
    this.#pollPolicy = { baseMs, maxFailures: 5, maxDelayMs: 60000, budgetMs: Infinity };
  }

  get done(): boolean {
    return isFinal(this.state);
  }

  /** How many timers, requests and listeners the flow holds (0 once it ended). */
  get held(): number {
    return this.#timers.size + this.#controllers.size + this.#cleanups.length;
  }

  /**
   * The one place where the state changes: by the table, then the event, so a listener reads the state that
   * follows it and whatever it does (cancel, start, remove) is the last word. Returns whether the flow is still
   * where the move took it once the listeners ran.
   */
  #go<K extends keyof ConnectEventDetails>(input: FlowInput, type?: K, detail?: ConnectEventDetails[K]): boolean {
    const to = next(this.state, input);
    if (!to) return false;
    const from = this.state;
    this.state = to;
    if (this.done) {
      this.endedIn = from;
      this.#release();
    }
    this.#host.changed();
    if (type) this.#host.emit(type, detail!);
    if (to === 'working') this.#settle.resolve((detail as ConnectEventDetails['connect-success']).connection);
    else if (this.done) this.#settle.reject(this.error!);
    return this.state === to;
  }

  /** An event that is no change of state (connect-status while verifying). Returns whether the flow still runs. */
  #tell<K extends keyof ConnectEventDetails>(type: K, detail: ConnectEventDetails[K]): boolean {
    const before = this.state;
    this.#host.emit(type, detail);
    return this.state === before;
  }

  #release(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    for (const controller of this.#controllers) controller.abort();
    for (const cleanup of this.#cleanups) cleanup();
    this.#timers.clear();
    this.#controllers.clear();
    this.#cleanups = [];
    closePopup(this.#popup);
  }

  /** The synchronous part, run inside the click, so popup blockers allow the popup. */
  begin(): void {
    if (!this.#go('start')) return;
    const onMessage = (event: MessageEvent) => this.#handleMessage(event);
    const onVisibility = () => {
      if (!document.hidden && this.#pollTimer !== undefined && this.#timers.has(this.#pollTimer)) this.#pollSoon(0);
    };
    // A reload or navigation would leave the popup open and its outcome lost.
    const onPageHide = () => this.cancel('cancelled');
    addEventListener('message', onMessage);
    addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onVisibility);
    this.#cleanups.push(
      () => removeEventListener('message', onMessage),
      () => removeEventListener('pagehide', onPageHide),
      () => document.removeEventListener('visibilitychange', onVisibility),
    );
    this.#popup = this.#open('about:blank');
    if (this.#popup) writePlaceholder(this.#popup, this.#config.popupText);
    this.#later(() => this.fail('timeout', 'timed out'), this.#config.timeout);
    this.#watchPopup();
    // What the caller had when the flow began: the connection (update) or their own of the provider (create).
    this.#known = this.#retrying('GET', this.#pathOf(this.#id), this.#urlPolicy).then(
      (answer) => new Map(this.#connections(answer).map((c) => [c.id, stamp(c)])),
      () => undefined,
    );
    void this.#requestUrl();
  }

  /** connect-start was cancelled: the flow never ran, and says nothing more. */
  withdraw(): void {
    this.error = new ConnectError('cancelled', 'connect-start was cancelled');
    this.state = 'cancelled';
    this.#release();
    this.#settle.reject(this.error);
  }

  cancel(reason: ConnectCancelReason): void {
    if (this.done) return;
    this.error = new ConnectError(reason, reason);
    this.#go('cancel', 'connect-cancel', { reason });
  }

  fail(code: ConnectErrorCode, message: string, problem?: Problem, connection?: Connection): void {
    if (this.done) return;
    this.error = new ConnectError(code, message, problem, connection);
    this.#go(code === 'bad_credentials' ? 'refused' : 'fail', 'connect-error', { code, message, problem, connection });
  }

  /** The fallback button's click: opens the popup the browser blocked. */
  openBlocked(): void {
    const url = this.blockedUrl;
    if (this.state !== 'blocked' || !url) return;
    const popup = this.#open(url);
    if (!popup) {
      // A real click that still opens nothing: popups are impossible here (a sandboxed frame, a strict setting).
      this.#host.warn(
        "no popup opens even on a click: an iframe's sandbox needs allow-popups and allow-popups-to-escape-sandbox",
      );
      return this.fail('invalid_config', 'this page cannot open the sign-in window');
    }
    this.#popup = popup;
    this.blockedUrl = undefined;
    if (this.#go('opened', 'connect-popup', { url })) this.#watchPopup();
  }

  /** The "stop waiting" control of a severed popup: the user closed it on purpose. */
  stopWaiting(): void {
    if (this.state === 'severed') this.cancel('popup_closed');
  }

  #later(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (!this.done) fn();
    }, ms);
    this.#timers.add(timer);
    return timer;
  }

  #open(url: string): Window | null {
    return openPopup(url, this.#name, this.#config.popupWidth, this.#config.popupHeight);
  }

  /** Watches the popup from the moment it opens until the flow knows its connection. */
  #watchPopup(): void {
    const check = () => {
      if (this.state !== 'requesting' && this.state !== 'authorizing') return;
      if (isClosed(this.#popup)) this.#popupClosed();
      else this.#later(check, CLOSED_CHECK);
    };
    this.#later(check, CLOSED_CHECK);
  }

  /**
   * Closed before the URL came: the user closed the blank window, a plain cancel. Closed later is ambiguous (a
   * provider page's COOP makes it read closed while it is open): keep asking the backend whether the caller's own
   * connection appeared or changed, and cancel only after the grace period.
   */
  #popupClosed(): void {
    if (this.state === 'requesting') return this.cancel('popup_closed');
    if (!this.#go('closed')) return;
    this.#later(() => this.stopWaiting(), this.#config.closedGrace);
    this.#pollSoon(0);
  }

  #handleMessage(event: MessageEvent): void {
    const own = !!this.#popup && event.source === this.#popup;
    if (!own && !this.#origins.has(event.origin)) return;
    const completion = readCompletion(event.data);
    if (!completion || (this.state !== 'authorizing' && this.state !== 'severed')) return;
    if ('connectionId' in completion) {
      const id = completion.connectionId;
      // Once the flow knows its connection, other IDs are ignored.
      if (this.#id && id !== this.#id) return;
      if (own) this.#found(id);
      else void this.#confirmClaim(id);
    } else if (own) {
      // Only the flow's own popup can report a failure: no backend can confirm one.
      this.fail('authorization_failed', completion.error);
    }
  }

  /**
   * A success claimed by a trusted origin's window that is not this flow's popup: the backend must confirm that it
   * is the caller's own connection, as this flow asked for it, new since the flow began.
   */
  async #confirmClaim(id: string): Promise<void> {
    try {
      const [connection] = this.#connections(await this.#attempt('GET', connectionPath(id)));
      const known = await this.#known;
      if (!connection || connection.id !== id || !this.#matches(connection) || !this.#isNew(connection, known)) return;
      // The same person's, not a coworker's: a backend with the list route tells its caller's own (create mode).
      if (known && !this.#id && !this.#connections(await this.#attempt('GET', this.#pathOf())).some((c) => c.id === id))
        return;
      this.#found(id, connection);
    } catch {
      // not confirmed: ignored
    }
  }

  /** The connection is the one this flow asked for: its own (update), or the provider, workspace and app it asked. */
  #matches(connection: Connection): boolean {
    if (this.#config.mode === 'update') return connection.id === this.#config.connectionId;
    const { provider, providerWorkspaceRef: workspace, providerAppId: app } = this.#config.body;
    return (
      connection.provider === provider &&
      (connection.providerWorkspaceRef ?? '') === (workspace ?? '') &&
      (!app || connection.providerApp?.id === app)
    );
  }

  /**
   * The caller's connection changed since the flow began: judged against what the backend listed then, or,
   * without that list, against the backend's own clock at its first answer (never the browser's clock).
   */
  #isNew(connection: Connection, known: Map<string, string> | undefined): boolean {
    return known ? known.get(connection.id) !== stamp(connection) : Date.parse(stamp(connection)) >= this.#since;
  }

  /** The flow's connection is known: verify it, polling quickly at first. */
  #found(id: string, connection?: Connection): void {
    if (!next(this.state, 'found')) return;
    this.#id = id;
    this.#quick = QUICK_POLLS;
    if (!this.#go('found', 'connect-connection', { connectionId: id })) return;
    if (connection) this.#verify(connection);
    else this.#pollSoon(0);
  }

  async #requestUrl(): Promise<void> {
    const { mode, body } = this.#config;
    let answer: unknown;
    try {
      answer =
        mode === 'update'
          ? await this.#retrying('PATCH', `${connectionPath(this.#id!)}:oauth-update`, this.#urlPolicy)
          : await this.#retrying('POST', '/oauth-connect', this.#urlPolicy, body);
    } catch (error) {
      return this.#failWith(error);
    }
    if (this.done) return;
    const record = answer as { url?: unknown; messageOrigin?: unknown } | null;
    const url = typeof answer === 'string' ? answer : record?.url;
    if (!isAllowedUrl(url)) return this.fail('invalid_url', 'no https URL');
    // Compared as is with event.origin: anything but an origin never matches.
    this.#origins.add(record?.messageOrigin as string);
    if (!this.#popup) {
      this.blockedUrl = url;
      this.#go('blocked', 'connect-popup-blocked', { url });
      return;
    }
    // Closed while the backend answered: the user gave up; no connect-popup for a closed window.
    if (isClosed(this.#popup)) return this.cancel('popup_closed');
    try {
      this.#popup.location.replace(url);
    } catch {
      // closed this very moment: the watch sees it
    }
    this.#go('opened', 'connect-popup', { url });
  }

  /**
   * The path of a connection, or without an ID of the caller's own connections to the provider (the backend narrows
   * to the consumer it identified).
   */
  #pathOf(id?: string): string {
    return id ? connectionPath(id) : `/connections?provider=${encodeURIComponent(this.provider)}&own=true`;
  }

  /** An answer of the list or the get route as connections, without credentials. */
  #connections(answer: unknown): Connection[] {
    return toConnections(([] as unknown[]).concat(answer));
  }

  #pollSoon(ms: number): void {
    if (this.done) return;
    clearTimeout(this.#pollTimer);
    this.#timers.delete(this.#pollTimer!);
    const step = this.#config.pollInterval;
    this.#pollTimer = this.#later(
      () => void this.#poll(),
      ms < 0 ? (document.hidden ? HIDDEN_SLOWDOWN : 1) * -ms * step : ms,
    );
  }

  /** One poll: while severed, has the caller's own matching connection appeared or changed? Once known, its status. */
  async #poll(): Promise<void> {
    if (this.#polling) return this.#pollSoon(50);
    this.#polling = true;
    const id = this.#id;
    let answer: unknown;
    try {
      answer = await this.#retrying('GET', this.#pathOf(id), this.#pollPolicy);
    } catch (error) {
      return this.#failWith(error);
    } finally {
      this.#polling = false;
    }
    if (this.state === 'severed') {
      const known = await this.#known;
      if (this.state !== 'severed') return this.#pollSoon(0);
      const found = this.#connections(answer).find((c) => this.#matches(c) && this.#isNew(c, known));
      if (found) this.#found(found.id, found);
      // A backend with no list route cannot tell of a new connection: then only messages and the grace remain.
      else if (id || known) this.#pollSoon(-SEVERED_STEP);
    } else if (this.state === 'verifying') this.#verify(this.#connections(answer)[0]);
    else this.#pollSoon(0);
  }

  #verify(connection: Connection | undefined): void {
    if (this.state !== 'verifying') return;
    if (!connection) return this.fail('http_error', 'the backend answered no connection');
    this.#host.saw(connection);
    const status = connection.status;
    if (status !== this.#lastStatus) {
      this.#lastStatus = status;
      if (!this.#tell('connect-status', { status, connection })) return;
    }
    if (status === 'working') this.#go('working', 'connect-success', { connection });
    else if (status === 'bad_credentials')
      this.fail('bad_credentials', 'the provider did not accept the sign-in', undefined, connection);
    else this.#pollSoon(this.#quick-- > 0 ? -QUICK_STEP : -1);
  }

  /** This failure is a request that got no answer, and no request of the flow ever did: the backend is unreached. */
  #unreached(error: unknown): boolean {
    return error instanceof BackendError && error.code === 'network_error' && Number.isNaN(this.#since);
  }

  #failWith(error: unknown): void {
    if (!(error instanceof BackendError)) return this.fail('network_error', String(error));
    if (error.notBackend) this.#host.warn(error.message);
    if (this.#unreached(error) && navigator.onLine)
      this.#host.warn(
        `${this.#config.endpoint} could not be reached: on another origin, the handler must list this page's origin in allowedOrigins (CORS); else check the endpoint attribute`,
      );
    // Retries given up on: network_error (docs/element.md's error codes), with what the backend said when it answered.
    this.fail(error.retryable ? 'network_error' : error.code, error.message, error.problem);
  }

  /** A request with retries of retryable failures, by the policy. */
  async #retrying(method: string, path: string, policy: RetryPolicy, body?: unknown): Promise<unknown> {
    for (let failures = 0, waited = 0; ;) {
      try {
        return await this.#attempt(method, path, body);
      } catch (error) {
        // A backend never reached (another origin without CORS, a wrong endpoint) is given seconds, not the budget.
        const budgetMs = this.#unreached(error) ? Math.min(policy.budgetMs, UNREACHED_BUDGET) : policy.budgetMs;
        const wait = retryDelay(error, ++failures, waited, { ...policy, budgetMs });
        if (wait === undefined || this.done) throw error;
        waited += wait;
        await new Promise<void>((resolve) => this.#later(resolve, wait));
      }
    }
  }

  /** One request to the host backend, held by the flow (aborted when it ends); throws a BackendError. */
  async #attempt(method: string, path: string, body?: unknown): Promise<unknown> {
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timer = this.#later(() => controller.abort(), REQUEST_TIMEOUT);
    try {
      const { data, date } = await callBackend({
        endpoint: this.#config.endpoint,
        method,
        path,
        headers: this.#config.headers,
        body,
        signal: controller.signal,
      });
      if (Number.isNaN(this.#since)) this.#since = date;
      return data;
    } finally {
      clearTimeout(timer);
      this.#timers.delete(timer);
      this.#controllers.delete(controller);
    }
  }
}
