// Internal: one connect flow, from the click to its single terminal event, as
// a state machine. Every state change and every event goes through #go, which
// follows the transition table NEXT and does nothing once the flow ended.
// Everything the flow holds (timers, listeners, requests) is registered here
// and released at the end, whatever ends it.
import type { Connection, Problem } from '../shared/types.js';
import { withoutCredentials } from '../shared/credentials.js';
import { backoffDelay, parseRetryAfter } from '../shared/retry.js';
import { isAllowedUrl } from '../shared/url.js';
import { ConnectError, type ConnectCancelReason, type ConnectErrorCode, type ConnectEventDetails } from './events.js';

export type ConnectState =
  'idle' | 'requesting' | 'authorizing' | 'verifying' | 'working' | 'bad_credentials' | 'error' | 'cancelled';

/**
 * The transition table: the states each running state may go to. A state may
 * go to itself (an event without a change of state). Terminal states have no
 * entry: a flow that ended goes nowhere; a new start() makes a new flow.
 */
const NEXT: Partial<Record<ConnectState, string>> = {
  idle: 'requesting error cancelled',
  requesting: 'requesting authorizing error cancelled',
  authorizing: 'authorizing verifying error cancelled',
  verifying: 'verifying working bad_credentials error cancelled',
};

export interface FlowConfig {
  endpoint: string;
  mode: 'create' | 'update';
  provider: string;
  connectionId: string | undefined;
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
  emit<K extends keyof ConnectEventDetails>(type: K, detail: ConnectEventDetails[K], cancelable?: boolean): boolean;
  /** The flow's visible state changed. */
  changed(): void;
  /** A connection (never with credentials) was read. */
  saw(connection: Connection): void;
}

/** A failed request (thrown by #attempt): retryable ones are tried again with backoff. */
interface Failure {
  code: 'http_error' | 'network_error';
  message: string;
  retryable: boolean;
  problem?: Problem;
  retryAfterMs?: number;
}

const MAX_FAILURES = 5;
const REQUEST_TIMEOUT = 15000;
const HIDDEN_SLOWDOWN = 5;
const CLOSED_CHECK = 250;
const MAX_DELAY = 60000;
/** Polls at QUICK_STEP x poll-interval right after the connection is known, before slowing down. */
const QUICK_POLLS = 5;
const QUICK_STEP = 0.3;
/** While a severed popup is awaited, the backend is asked every SEVERED_STEP x poll-interval. */
const SEVERED_STEP = 2;

let flows = 0;

/** What "changed since the flow began" is judged by: the platform's own times. */
const stamp = (c: Connection) => c.updateTime ?? c.createTime;

export class Flow {
  state: ConnectState = 'idle';
  done = false;
  /** The popup reads closed with no outcome yet: the flow waits for the backend to learn of it. */
  severed = false;
  /** The URL of a blocked popup, for the fallback button. */
  blockedUrl?: string;
  /** The error that ended the flow, if one did. */
  error?: ConnectError;
  readonly promise: Promise<Connection>;
  readonly provider: string;
  #settle!: { resolve(c: Connection): void; reject(e: ConnectError): void };
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #controllers = new Set<AbortController>();
  #cleanups: Array<() => void> = [];
  #popup: Window | null = null;
  /** A window name of this flow only: two flows never share a popup. */
  #name = `connect-provider-${++flows}-${Math.random().toString(36).slice(2)}`;
  #origins: Set<string>;
  #id?: string;
  /** The caller's connections when the flow began (id -> updateTime), or undefined when the backend could not tell. */
  #known?: Promise<Map<string, string> | undefined>;
  #lastStatus?: string;
  #quick = 0;
  #pollTimer?: ReturnType<typeof setTimeout>;
  #polling = false;
  #warned = false;
  /** The backend's clock (Date header) at its first answer: the fallback baseline when it has no list route. */
  #since = NaN;

  #host: FlowHost;
  #config: FlowConfig;

  constructor(host: FlowHost, config: FlowConfig) {
    this.#host = host;
    this.#config = config;
    this.provider = config.provider;
    this.promise = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    this.#origins = new Set(config.messageOrigins.split(/\s+/));
    this.#id = config.connectionId;
  }

  /** How many timers, requests and listeners the flow holds (0 once it ended). */
  get held(): number {
    return this.#timers.size + this.#controllers.size + this.#cleanups.length;
  }

  /**
   * The one place where the state changes and events go out: the state
   * first, then the event, so a listener reads the state that follows it and
   * whatever it does (cancel, start, remove) is the last word. Returns whether
   * the flow is still in `next` once the listeners ran.
   */
  #go<K extends keyof ConnectEventDetails>(next: ConnectState, type?: K, detail?: ConnectEventDetails[K]): boolean {
    if (this.done || !NEXT[this.state]!.split(' ').includes(next)) return false;
    this.state = next;
    if (!NEXT[next]) {
      this.done = true;
      for (const timer of this.#timers) clearTimeout(timer);
      for (const controller of this.#controllers) controller.abort();
      for (const cleanup of this.#cleanups) cleanup();
      this.#timers.clear();
      this.#controllers.clear();
      this.#cleanups = [];
      try {
        if (this.#popup && !this.#popup.closed) this.#popup.close();
      } catch {
        // a severed popup cannot be closed from here
      }
    }
    if (next !== 'authorizing') this.severed = false;
    this.#host.changed();
    if (type) this.#host.emit(type, detail!);
    if (next === 'working') this.#settle.resolve((detail as ConnectEventDetails['connect-success']).connection);
    else if (this.done) this.#settle.reject(this.error!);
    return this.state === next && !this.done;
  }

  /** The synchronous part, run inside the click, so popup blockers allow the popup. */
  begin(): void {
    const { mode, endpoint, provider } = this.#config;
    if (!this.#host.emit('connect-start', { mode }, true)) {
      this.done = true;
      this.#settle.reject(new ConnectError('cancelled', 'connect-start was cancelled'));
      return;
    }
    // A listener of connect-start may have cancelled.
    if (this.done) return;
    const missing = !endpoint ? 'endpoint' : mode === 'create' && !provider ? 'provider' : '';
    if (missing) {
      this.#warn(`the ${missing} attribute is required`);
      return this.fail('invalid_config', `the ${missing} attribute is required`);
    }
    if (!this.#go('requesting')) return;
    const onMessage = (event: MessageEvent) => this.#handleMessage(event);
    const onVisibility = () => {
      if (!document.hidden && this.#pollTimer !== undefined && this.#timers.has(this.#pollTimer)) this.#pollSoon(0);
    };
    addEventListener('message', onMessage);
    document.addEventListener('visibilitychange', onVisibility);
    this.#cleanups.push(
      () => removeEventListener('message', onMessage),
      () => document.removeEventListener('visibilitychange', onVisibility),
    );
    this.#popup = this.#openPopup('about:blank');
    if (this.#popup) {
      try {
        this.#popup.document.title = this.#popup.document.body.textContent = this.#config.popupText;
      } catch {
        // not same-origin any more: nothing to write
      }
    }
    this.#later(() => this.fail('timeout', 'timed out'), this.#config.timeout);
    this.#watchPopup();
    // What the caller had when the flow began: the connection (update) or the list of the provider's (create).
    this.#known = this.#retrying('GET', this.#id ? this.#path(this.#id) : this.#listPath()).then(
      (answer) => new Map((Array.isArray(answer) ? answer : [answer]).map((c: Connection) => [c?.id, c && stamp(c)])),
      () => undefined,
    );
    void this.#requestUrl();
  }

  cancel(reason: ConnectCancelReason): void {
    if (this.done) return;
    this.error = new ConnectError(reason, reason);
    this.#go('cancelled', 'connect-cancel', { reason });
  }

  fail(code: ConnectErrorCode, message: string, problem?: Problem, connection?: Connection): void {
    if (this.done) return;
    this.error = new ConnectError(code, message, problem, connection);
    this.#go(code === 'bad_credentials' ? 'bad_credentials' : 'error', 'connect-error', {
      code,
      message,
      problem,
      connection,
    });
  }

  /** The fallback button's click: opens the popup the browser blocked. */
  openBlocked(): void {
    const url = this.blockedUrl;
    if (this.state !== 'authorizing' || !url) return;
    const popup = this.#openPopup(url);
    if (!popup) return;
    this.#popup = popup;
    this.blockedUrl = undefined;
    this.#go('authorizing', 'connect-popup', { url });
  }

  /** The "stop waiting" control of a severed popup: the user closed it on purpose. */
  stopWaiting(): void {
    if (this.severed) this.cancel('popup_closed');
  }

  /** Misconfiguration is the developer's to fix: one console warning per flow says what is wrong. */
  #warn(message: string): void {
    if (!this.#warned) console.warn(`<connect-provider>: ${message}`);
    this.#warned = true;
  }

  #later(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (!this.done) fn();
    }, ms);
    this.#timers.add(timer);
    return timer;
  }

  #openPopup(url: string): Window | null {
    const { popupWidth: w, popupHeight: h } = this.#config;
    const left = Math.round(screenX + (outerWidth - w) / 2);
    const top = Math.round(screenY + (outerHeight - h) / 2);
    return open(url, this.#name, `popup,width=${w},height=${h},left=${left},top=${top}`);
  }

  /** Watches the popup from the moment it opens (or the fallback opens it) until the flow knows its connection. */
  #watchPopup(): void {
    const check = () => {
      if (this.state === 'verifying') return;
      if (this.#popup?.closed) this.#popupClosed();
      else this.#later(check, CLOSED_CHECK);
    };
    this.#later(check, CLOSED_CHECK);
  }

  /**
   * Closed before the URL came: the user closed the blank window, a plain
   * cancel. Closed later is ambiguous (a provider page's COOP makes it read
   * true while the popup is open): keep asking the backend whether the
   * connection appeared or changed, and cancel only after the grace period.
   */
  #popupClosed(): void {
    if (this.state === 'requesting') return this.cancel('popup_closed');
    this.severed = true;
    if (!this.#go('authorizing')) return;
    this.#later(() => this.stopWaiting(), this.#config.closedGrace);
    this.#pollSoon(0);
  }

  #handleMessage(event: MessageEvent): void {
    const own = !!this.#popup && event.source === this.#popup;
    if (!own && !this.#origins.has(event.origin)) return;
    const data = event.data;
    const inner = data?.data;
    if (data?.eventType === 'AUTHORIZATION_SUCCEEDED') {
      const id = inner?.connection;
      // Once the flow knows its connection, other IDs are ignored.
      if (this.state !== 'authorizing' || typeof id !== 'string' || !id || (this.#id && id !== this.#id)) return;
      if (own) this.#found(id);
      else void this.#confirmClaim(id);
    } else if (own && data?.eventType === 'AUTHORIZATION_FAILED') {
      // Only the flow's own popup can report a failure: no backend can confirm one.
      const text = inner?.error ?? inner?.message;
      this.fail('authorization_failed', typeof text === 'string' && text ? text : 'the authorization failed');
    }
  }

  /** A success claimed by a trusted origin's window that is not this flow's popup: the backend must confirm it. */
  async #confirmClaim(id: string): Promise<void> {
    try {
      const connection = withoutCredentials((await this.#attempt('GET', this.#path(id))) as Connection);
      if (
        connection.id === id &&
        (this.#id || connection.provider === this.provider) &&
        this.#isNew(connection, await this.#known)
      ) {
        this.#found(id, connection);
      }
    } catch {
      // not confirmed: ignored
    }
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
    if (this.state !== 'authorizing') return;
    this.#id = id;
    this.#quick = QUICK_POLLS;
    if (!this.#go('verifying', 'connect-connection', { connectionId: id })) return;
    if (connection) this.#verify(connection);
    else this.#pollSoon(0);
  }

  async #requestUrl(): Promise<void> {
    const { mode, body } = this.#config;
    let answer: unknown;
    try {
      answer =
        mode === 'update'
          ? await this.#retrying('PATCH', `${this.#path(this.#id!)}:oauth-update`)
          : await this.#retrying('POST', '/oauth-connect', body);
    } catch (error) {
      this.#failWith(error);
      return;
    }
    if (this.done) return;
    const record = answer as { url?: unknown; messageOrigin?: unknown } | null;
    const url = typeof answer === 'string' ? answer : record?.url;
    if (!isAllowedUrl(url)) {
      this.fail('invalid_url', 'no https URL');
      return;
    }
    // Compared as is with event.origin: anything but an origin never matches.
    this.#origins.add(record?.messageOrigin as string);
    if (!this.#popup) {
      this.blockedUrl = url;
      this.#go('authorizing', 'connect-popup-blocked', { url });
      return;
    }
    // Closed while the backend answered: the user gave up; no connect-popup for a closed window.
    if (this.#popup.closed) return this.cancel('popup_closed');
    try {
      this.#popup.location.replace(url);
    } catch {
      // closed this very moment: the watch sees it
    }
    this.#go('authorizing', 'connect-popup', { url });
  }

  #path(id: string): string {
    return `/connections/${encodeURIComponent(id)}`;
  }

  #listPath(): string {
    return `/connections?provider=${encodeURIComponent(this.provider)}`;
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

  /** One poll: while severed, has the caller's connection appeared or changed? Once known, its status. */
  async #poll(): Promise<void> {
    if (this.#polling) return this.#pollSoon(50);
    this.#polling = true;
    const id = this.#id;
    let answer: unknown;
    try {
      answer = await this.#retrying('GET', id ? this.#path(id) : this.#listPath());
    } catch (error) {
      return this.#failWith(error);
    } finally {
      this.#polling = false;
    }
    if (this.state === 'authorizing') {
      const known = await this.#known;
      if (this.state !== 'authorizing') return this.#pollSoon(0);
      const found = ([] as Connection[]).concat(answer as Connection).find((c) => c && this.#isNew(c, known));
      if (found) this.#found(found.id, withoutCredentials(found));
      // A backend with no list route cannot tell of a new connection: then only messages and the grace remain.
      else if (id || known) this.#pollSoon(-SEVERED_STEP);
    } else if (id) this.#verify(withoutCredentials(answer as Connection));
    else this.#pollSoon(0);
  }

  #verify(connection: Connection): void {
    if (this.state !== 'verifying') return;
    this.#host.saw(connection);
    const status = connection.status;
    if (status !== this.#lastStatus) {
      this.#lastStatus = status;
      if (!this.#go('verifying', 'connect-status', { status, connection })) return;
    }
    if (status === 'working') this.#go('working', 'connect-success', { connection });
    else if (status === 'bad_credentials')
      this.fail('bad_credentials', 'the provider refused the credentials', undefined, connection);
    else this.#pollSoon(this.#quick-- > 0 ? -QUICK_STEP : -1);
  }

  #failWith(error: unknown): void {
    const { retryable, code, message, problem } = error as Failure;
    this.fail(retryable ? 'network_error' : code, message, problem);
  }

  /** Ms to wait before trying again after the n-th failure in a row, or undefined to give up. */
  #retryDelay(error: unknown, failures: number): number | undefined {
    const { retryable, retryAfterMs } = error as Failure;
    if (!retryable || failures > MAX_FAILURES) return undefined;
    const wait = retryAfterMs ?? backoffDelay(failures - 1, { baseMs: this.#config.pollInterval, maxMs: MAX_DELAY });
    return Math.min(wait, MAX_DELAY);
  }

  /** A request with up to MAX_FAILURES retries of retryable failures. */
  async #retrying(method: string, path: string, body?: unknown): Promise<unknown> {
    for (let failures = 0; ;) {
      try {
        return await this.#attempt(method, path, body);
      } catch (error) {
        const wait = this.#retryDelay(error, ++failures);
        if (wait === undefined || this.done) throw error;
        await new Promise<void>((resolve) => this.#later(resolve, wait));
      }
    }
  }

  /** One request to the host backend; throws a Failure. */
  async #attempt(method: string, path: string, body?: unknown): Promise<unknown> {
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timer = this.#later(() => controller.abort(), REQUEST_TIMEOUT);
    const url = this.#config.endpoint.replace(/\/+$/, '') + path;
    try {
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method,
          headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...this.#config.headers },
          body: body ? JSON.stringify(body) : null,
          credentials: 'include',
          cache: 'no-store',
          signal: controller.signal,
        });
        text = await response.text();
      } catch {
        throw { code: 'network_error', message: 'the server could not be reached', retryable: true } satisfies Failure;
      }
      const { status, ok } = response;
      if (Number.isNaN(this.#since)) this.#since = Date.parse(response.headers.get('date')!);
      const type = response.headers.get('content-type') ?? '';
      let parsed: unknown = text;
      if (/html/.test(type) || (status === 404 && !/json/.test(type))) {
        const message = `${method} ${url} answered ${status} ${type}, not a connect backend`;
        this.#warn(message);
        throw { code: 'http_error', message, retryable: false, problem: { status } } satisfies Failure;
      }
      if (/json/.test(type)) {
        try {
          parsed = JSON.parse(text);
        } catch {
          throw {
            code: 'http_error',
            message: `malformed JSON (${status})`,
            retryable: status >= 500,
          } satisfies Failure;
        }
      }
      if (ok) return parsed;
      const problem = parsed && typeof parsed === 'object' ? (parsed as Problem) : { status };
      const retryable = problem.retryable ?? (status >= 500 || status === 429);
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after')) ?? parseRetryAfter(problem.retryAfter);
      throw {
        code: 'http_error',
        message: problem.detail || problem.title || `the server answered ${status}`,
        retryable,
        problem,
        retryAfterMs,
      } satisfies Failure;
    } finally {
      clearTimeout(timer);
      this.#timers.delete(timer);
      this.#controllers.delete(controller);
    }
  }
}
