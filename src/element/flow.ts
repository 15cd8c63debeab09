// Internal: one connect flow, from the click to its single terminal event.
// Everything it holds (timers, listeners, requests) is registered here and
// released at the end, whatever ends it.
import type { Connection, Problem } from '../api/types.js';
import { withoutCredentials } from '../api/credentials.js';
import { backoffDelay, parseRetryAfter } from '../api/retry.js';
import { ConnectError, type ConnectCancelReason, type ConnectErrorCode, type ConnectEventDetails } from './events.js';

export type ConnectState =
  | 'idle'
  | 'requesting'
  | 'authorizing'
  | 'verifying'
  | 'working'
  | 'bad_credentials'
  | 'error'
  | 'cancelled';

export interface FlowConfig {
  endpoint: string;
  mode: 'create' | 'update';
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
  emit<K extends keyof ConnectEventDetails>(type: K, detail: ConnectEventDetails[K]): void;
  /** The flow's visible state changed. */
  changed(state: ConnectState, blockedUrl?: string): void;
  /** A connection (never with credentials) was read. */
  saw(connection: Connection): void;
}

/** A failed request: retryable ones are tried again with backoff. */
class Failure {
  constructor(
    readonly code: 'http_error' | 'network_error',
    readonly message: string,
    readonly retryable: boolean,
    readonly problem?: Problem,
    readonly retryAfterMs?: number,
  ) {}
}

const MAX_FAILURES = 5;
const REQUEST_TIMEOUT = 15000;
const HIDDEN_SLOWDOWN = 5;
const CLOSED_CHECK = 500;
const MAX_DELAY = 60000;

/** https, or http on a loopback host. */
export function isAllowedUrl(url: unknown): url is string {
  if (typeof url !== 'string') return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname;
  return (
    parsed.protocol === 'https:' ||
    (parsed.protocol === 'http:' && (host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)))
  );
}

export class Flow {
  done = false;
  /** The error that ended the flow, if one did. */
  error?: ConnectError;
  readonly promise: Promise<Connection>;
  #settle!: { resolve(c: Connection): void; reject(e: ConnectError): void };
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #controllers = new Set<AbortController>();
  #cleanups: Array<() => void> = [];
  #popup: Window | null = null;
  #origins: Set<string>;
  #url?: string;
  #connectionId?: string;
  /** The platform confirmed this flow's connection (a success message, or a changed status in update mode). */
  #confirmed = false;
  /** Update mode: the connection's updateTime when the flow began. */
  #baseline?: string;
  #lastStatus?: string;
  #failures = 0;
  #pollTimer?: ReturnType<typeof setTimeout>;
  #polling = false;
  #closedSeen = false;

  #host: FlowHost;
  #config: FlowConfig;

  constructor(host: FlowHost, config: FlowConfig) {
    this.#host = host;
    this.#config = config;
    this.promise = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    this.#origins = new Set(config.messageOrigins.split(/\s+/));
    if (config.mode === 'update') this.#connectionId = config.connectionId;
  }

  /** How many timers, requests and listeners the flow holds (0 once it ended). */
  get held(): number {
    return this.#timers.size + this.#controllers.size + this.#cleanups.length;
  }

  /** The synchronous part, run inside the click, so popup blockers allow the popup. */
  begin(): void {
    const onMessage = (event: MessageEvent) => this.#handleMessage(event);
    const onVisibility = () => {
      if (!document.hidden && this.#connectionId && this.#pollTimer !== undefined) this.#pollSoon(0);
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
        this.#popup.document.title = this.#config.popupText;
        this.#popup.document.body.textContent = this.#config.popupText;
      } catch {
        // not same-origin any more: nothing to write
      }
    }
    this.#later(() => this.fail('timeout', 'timed out'), this.#config.timeout);
    this.#host.changed('requesting');
    void this.#requestUrl();
    if (this.#config.mode === 'update') void this.#readBaseline();
  }

  cancel(reason: ConnectCancelReason): void {
    if (this.#end('cancelled')) {
      this.#host.emit('connect-cancel', { reason });
      this.#settle.reject(new ConnectError(reason, reason === 'popup_closed' ? 'the popup was closed' : 'the flow was cancelled'));
    }
  }

  fail(code: ConnectErrorCode, message: string, problem?: Problem, connection?: Connection): void {
    if (this.done) return;
    this.error = new ConnectError(code, message, problem, connection);
    this.#end(code === 'bad_credentials' ? 'bad_credentials' : 'error');
    this.#host.emit('connect-error', { code, message, ...(problem ? { problem } : {}), ...(connection ? { connection } : {}) });
    this.#settle.reject(this.error);
  }

  /** The fallback button's click: opens the popup the browser blocked. */
  openBlocked(): void {
    if (this.done || !this.#url) return;
    const popup = this.#openPopup(this.#url);
    if (!popup) return;
    this.#popup = popup;
    this.#host.emit('connect-popup', { url: this.#url });
    this.#host.changed('authorizing');
    this.#watchPopup();
  }

  #end(state: ConnectState): boolean {
    if (this.done) return false;
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
    this.#host.changed(state);
    return true;
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
    return open(url, 'connect-provider', `popup,width=${w},height=${h},left=${left},top=${top}`);
  }

  #watchPopup(): void {
    const check = () => {
      if (this.#popup?.closed) this.#popupClosed();
      else this.#later(check, CLOSED_CHECK);
    };
    this.#later(check, CLOSED_CHECK);
  }

  /**
   * `closed` is ambiguous (a provider page's COOP makes it read true while the
   * popup is open): once the connection is confirmed, keep verifying; else
   * cancel only if nothing is heard during the grace period.
   */
  #popupClosed(): void {
    if (this.#closedSeen || this.#confirmed) return;
    this.#closedSeen = true;
    if (this.#config.mode === 'update') this.#pollSoon(0);
    this.#later(() => {
      if (!this.#confirmed) this.cancel('popup_closed');
    }, this.#config.closedGrace);
  }

  #handleMessage(event: MessageEvent): void {
    if (!(this.#popup && event.source === this.#popup) && !this.#origins.has(event.origin)) return;
    let data = event.data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        return;
      }
    }
    const inner = data?.data;
    if (data?.eventType === 'AUTHORIZATION_SUCCEEDED') {
      const id = inner?.connection;
      if (typeof id !== 'string' || id === '' || (this.#config.mode === 'update' && id !== this.#connectionId)) return;
      this.#connectionId = id;
      this.#confirm();
      this.#pollSoon(0);
    } else if (data?.eventType === 'AUTHORIZATION_FAILED') {
      const text = inner?.error ?? inner?.message;
      this.fail('authorization_failed', typeof text === 'string' && text ? text : 'the authorization failed');
    }
  }

  #confirm(): void {
    if (this.#confirmed) return;
    this.#confirmed = true;
    this.#host.emit('connect-connection', { connectionId: this.#connectionId! });
    this.#host.changed('verifying');
  }

  async #requestUrl(): Promise<void> {
    const { mode, body } = this.#config;
    let answer: unknown;
    try {
      answer =
        mode === 'update'
          ? await this.#retrying('PATCH', `/connections/${encodeURIComponent(this.#connectionId!)}:oauth-update`)
          : await this.#retrying('POST', '/oauth-connect', body);
    } catch (error) {
      this.#failWith(error);
      return;
    }
    if (this.done) return;
    const record = answer as { url?: unknown; messageOrigin?: unknown } | null;
    const url = typeof answer === 'string' ? answer : record?.url;
    if (!isAllowedUrl(url)) {
      this.fail('invalid_url', 'the server answered no usable https URL');
      return;
    }
    const origin = record?.messageOrigin;
    if (typeof origin === 'string') {
      try {
        if (new URL(origin).origin === origin) this.#origins.add(origin);
      } catch {
        // not an origin: ignored
      }
    }
    this.#url = url;
    if (!this.#popup) {
      this.#host.emit('connect-popup-blocked', { url });
      this.#host.changed('authorizing', url);
      return;
    }
    try {
      this.#popup.location.replace(url);
    } catch {
      // closed meanwhile: the watch below sees it
    }
    this.#host.emit('connect-popup', { url });
    this.#host.changed('authorizing');
    this.#watchPopup();
  }

  async #readBaseline(): Promise<void> {
    try {
      const connection = (await this.#attempt('GET', this.#connectionPath())) as Connection;
      if (!this.done && this.#baseline === undefined && !this.#confirmed) this.#baseline = connection.updateTime ?? connection.createTime;
    } catch {
      // without a baseline only the success message confirms the update
    }
  }

  #connectionPath(): string {
    return `/connections/${encodeURIComponent(this.#connectionId!)}`;
  }

  #interval(): number {
    return document.hidden ? this.#config.pollInterval * HIDDEN_SLOWDOWN : this.#config.pollInterval;
  }

  #pollSoon(ms: number): void {
    if (this.#pollTimer !== undefined) {
      clearTimeout(this.#pollTimer);
      this.#timers.delete(this.#pollTimer);
    }
    this.#pollTimer = this.#later(() => void this.#poll(), ms);
  }

  async #poll(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    let connection: Connection;
    try {
      connection = withoutCredentials((await this.#attempt('GET', this.#connectionPath())) as Connection);
    } catch (error) {
      this.#polling = false;
      if (this.done) return;
      const wait = this.#retryDelay(error, ++this.#failures);
      if (wait === undefined) this.#failWith(error);
      else this.#pollSoon(wait);
      return;
    }
    this.#polling = false;
    if (this.done) return;
    this.#failures = 0;
    this.#host.saw(connection);
    // Update mode: an old status (say bad_credentials) must not end a reconnect at once.
    const changed = this.#baseline !== undefined && (connection.updateTime ?? connection.createTime) !== this.#baseline;
    if (!this.#confirmed && changed) this.#confirm();
    if (!this.#confirmed) {
      this.#pollSoon(this.#interval());
      return;
    }
    if (connection.status !== this.#lastStatus) {
      this.#lastStatus = connection.status;
      this.#host.emit('connect-status', { status: connection.status, connection });
    }
    if (connection.status === 'working') {
      if (this.#end('working')) {
        this.#host.emit('connect-success', { connection });
        this.#settle.resolve(connection);
      }
    } else if (connection.status === 'bad_credentials') {
      this.fail('bad_credentials', 'the provider refused the credentials', undefined, connection);
    } else {
      this.#pollSoon(this.#interval());
    }
  }

  #failWith(error: unknown): void {
    if (error instanceof Failure) {
      this.fail(error.retryable ? 'network_error' : error.code, error.message, error.problem);
    } else {
      this.fail('network_error', String(error));
    }
  }

  /** Ms to wait before trying again after the n-th failure in a row, or undefined to give up. */
  #retryDelay(error: unknown, failures: number): number | undefined {
    if (!(error instanceof Failure) || !error.retryable || failures > MAX_FAILURES) return undefined;
    const wait = error.retryAfterMs ?? backoffDelay(failures - 1, { baseMs: this.#config.pollInterval, maxMs: MAX_DELAY });
    return Math.min(wait, MAX_DELAY);
  }

  /** A request with up to MAX_FAILURES retries of retryable failures. */
  async #retrying(method: string, path: string, body?: unknown): Promise<unknown> {
    for (let failures = 0; ; ) {
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
    try {
      let response: Response;
      let text: string;
      try {
        response = await fetch(this.#config.endpoint.replace(/\/+$/, '') + path, {
          method,
          headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...this.#config.headers },
          body: body ? JSON.stringify(body) : null,
          credentials: 'include',
          cache: 'no-store',
          signal: controller.signal,
        });
        text = await response.text();
      } catch {
        throw new Failure('network_error', 'the server could not be reached', true);
      }
      const type = response.headers.get('content-type') ?? '';
      let parsed: unknown = text;
      if (/json/.test(type)) {
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new Failure('http_error', `the server answered ${response.status} with malformed JSON`, response.status >= 500);
        }
      }
      if (response.ok) return parsed;
      const problem = parsed && typeof parsed === 'object' ? (parsed as Problem) : { status: response.status };
      const retryable = problem.retryable ?? (response.status >= 500 || response.status === 429);
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after')) ?? parseRetryAfter(problem.retryAfter);
      const message = problem.detail || problem.title || `the server answered ${response.status}`;
      throw new Failure('http_error', message, retryable, problem, retryAfterMs);
    } finally {
      clearTimeout(timer);
      this.#timers.delete(timer);
      this.#controllers.delete(controller);
    }
  }
}
