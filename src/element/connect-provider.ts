import { LitElement, html, nothing } from 'lit';
import type { Connection } from '../api/types.js';
import { styles } from './connect-provider.styles.js';
import { ConnectError, type ConnectEventDetails } from './events.js';
import { Flow, type ConnectState } from './flow.js';
import { DEFAULT_STRINGS, type ConnectStrings } from './strings.js';

/** What the backend's oauth-connect gets from the element. */
const HINTS = [
  'provider',
  'groupRef',
  'groupName',
  'consumerRef',
  'consumerName',
  'providerWorkspaceRef',
  'providerAppId',
  'providerMetadata',
] as const;

const RUNNING: ReadonlySet<ConnectState> = new Set(['requesting', 'authorizing', 'verifying']);

/**
 * @summary A button that connects the user's third-party account through the
 * platform's OAuth popup, then verifies that the connection works.
 *
 * @event connect-start - A flow begins (cancelable). `{ mode }`
 * @event connect-popup - The popup is sent to the OAuth URL. `{ url }`
 * @event connect-popup-blocked - The browser blocked the popup; a fallback button is shown. `{ url }`
 * @event connect-connection - The connection ID becomes known. `{ connectionId }`
 * @event connect-status - The polled status changed. `{ status, connection }`
 * @event connect-success - Terminal: the connection is `working`. `{ connection }`
 * @event connect-error - Terminal: anything that failed. `{ code, message, problem?, connection? }`
 * @event connect-cancel - Terminal: the popup was closed or `cancel()` ran. `{ reason }`
 *
 * @slot - The button's label (default "Connect <provider>", or "Reconnect <provider>" in update mode).
 *
 * @csspart button - The connect button.
 * @csspart status - The status line (`role="status"`).
 * @csspart fallback - The button that opens a blocked popup.
 *
 * @cssproperty --connect-provider-background - Button background.
 * @cssproperty --connect-provider-color - Button text color.
 * @cssproperty --connect-provider-border - Button border.
 * @cssproperty --connect-provider-radius - Button corner radius.
 * @cssproperty --connect-provider-padding - Button padding.
 * @cssproperty --connect-provider-font - Button font.
 * @cssproperty --connect-provider-focus-ring - Focus outline.
 * @cssproperty --connect-provider-status-color - Status line color.
 * @cssproperty --connect-provider-error-color - Status line color after an error.
 * @cssproperty --connect-provider-success-color - Status line color once connected.
 */
export class ConnectProvider extends LitElement {
  static override styles = styles;

  static override properties = {
    endpoint: {},
    provider: {},
    groupRef: { attribute: 'group-ref' },
    groupName: { attribute: 'group-name' },
    consumerRef: { attribute: 'consumer-ref' },
    consumerName: { attribute: 'consumer-name' },
    providerWorkspaceRef: { attribute: 'provider-workspace-ref' },
    providerAppId: { attribute: 'provider-app-id' },
    connectionId: { attribute: 'connection-id' },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    timeout: { type: Number },
    popupWidth: { type: Number, attribute: 'popup-width' },
    popupHeight: { type: Number, attribute: 'popup-height' },
    closedGrace: { type: Number, attribute: 'closed-grace' },
    messageOrigins: { attribute: 'message-origins' },
    disabled: { type: Boolean, reflect: true },
    providerMetadata: { attribute: false },
    requestHeaders: { attribute: false },
    strings: { attribute: false },
    current: { state: true },
    blockedUrl: { state: true },
  };

  /** Base URL of the host backend's connect routes, e.g. `/api/connect`. */
  declare endpoint: string;
  /** The provider to connect (required unless `connection-id` is set). */
  declare provider: string;
  /** Hint forwarded to the backend. */
  declare groupRef?: string;
  /** Hint forwarded to the backend. */
  declare groupName?: string;
  /** Hint forwarded to the backend. */
  declare consumerRef?: string;
  /** Hint forwarded to the backend. */
  declare consumerName?: string;
  /** The provider workspace (for example a subdomain), forwarded to the backend. */
  declare providerWorkspaceRef?: string;
  /** A provider app other than the project's default, forwarded to the backend. */
  declare providerAppId?: string;
  /** When set, the element re-authorizes this connection (update mode). */
  declare connectionId?: string;
  /** Base polling interval in ms. */
  declare pollInterval: number;
  /** Ms from opening the popup to giving up. */
  declare timeout: number;
  /** Popup width in CSS px. */
  declare popupWidth: number;
  /** Popup height in CSS px. */
  declare popupHeight: number;
  /** Ms a closed popup is given for its completion message before the flow counts as cancelled. */
  declare closedGrace: number;
  /** Space-separated extra origins whose messages the element trusts. */
  declare messageOrigins: string;
  /** Disables the button. */
  declare disabled: boolean;
  /** Provider metadata forwarded to the backend (property only). */
  declare providerMetadata?: Record<string, unknown>;
  /** Extra headers for backend calls, e.g. a CSRF token (property only). */
  declare requestHeaders?: Record<string, string>;
  /** Replacements for the user-facing strings (property only). */
  declare strings: Partial<ConnectStrings>;

  declare private current: ConnectState;
  declare private blockedUrl?: string;
  private flow?: Flow;
  private lastConnection?: Connection;

  constructor() {
    super();
    this.endpoint = '';
    this.provider = '';
    this.pollInterval = 1000;
    this.timeout = 300000;
    this.popupWidth = 600;
    this.popupHeight = 720;
    this.closedGrace = 3000;
    this.messageOrigins = '';
    this.disabled = false;
    this.strings = {};
    this.current = 'idle';
  }

  /** The flow's state, reflected as the `state` attribute. Read-only. */
  get state(): ConnectState {
    return this.current;
  }

  /** The last Connection seen, never with credentials. Read-only. */
  get connection(): Connection | undefined {
    return this.lastConnection;
  }

  /** The last error. Read-only. */
  get error(): ConnectError | undefined {
    return this.flow?.error;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.setAttribute('state', this.current);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.flow?.cancel('cancelled');
  }

  private handleClick(): void {
    if (this.disabled || RUNNING.has(this.current)) return;
    // The outcome is told through events; a click has nobody to reject to.
    this.start().catch(() => {});
  }

  private handleFallback(): void {
    this.flow?.openBlocked();
    // The fallback button disappears: keep focus in the element.
    this.renderRoot.querySelector<HTMLButtonElement>('[part=button]')?.focus();
  }

  private emit<K extends keyof ConnectEventDetails>(type: K, detail: ConnectEventDetails[K], cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
  }

  private text(key: keyof ConnectStrings): string {
    const name = this.provider ? this.provider[0].toUpperCase() + this.provider.slice(1) : '';
    return ({ ...DEFAULT_STRINGS, ...this.strings })[key].replace('{provider}', name).trim();
  }

  /**
   * Starts a flow. Call it from a user gesture (a click), so the popup may
   * open. Resolves with the connection once `working`; rejects with a
   * ConnectError otherwise. During a flow it returns that flow's promise.
   */
  start(): Promise<Connection> {
    if (this.flow && !this.flow.done) return this.flow.promise;
    const mode = this.connectionId ? 'update' : 'create';
    if (!this.emit('connect-start', { mode }, true)) {
      return Promise.reject(new ConnectError('cancelled', 'connect-start was cancelled'));
    }
    const body: Record<string, unknown> = {};
    for (const key of HINTS) body[key] = this[key];
    const flow = new Flow(
      {
        emit: (type, detail) => this.emit(type, detail),
        changed: (next, blockedUrl) => {
          if (this.flow !== flow) return;
          // Reflected at once, so a listener of the terminal event reads the final state.
          this.setAttribute('state', (this.current = next));
          this.blockedUrl = blockedUrl;
        },
        saw: (connection) => (this.lastConnection = connection),
      },
      {
        endpoint: this.endpoint,
        mode,
        connectionId: this.connectionId,
        body,
        headers: { ...this.requestHeaders },
        pollInterval: Math.max(10, this.pollInterval || 1000),
        timeout: Math.max(1, this.timeout || 300000),
        closedGrace: Math.max(0, this.closedGrace),
        popupWidth: this.popupWidth,
        popupHeight: this.popupHeight,
        messageOrigins: this.messageOrigins,
        popupText: this.text('popup'),
      },
    );
    this.flow = flow;
    const missing = !this.endpoint ? 'endpoint' : mode === 'create' && !this.provider ? 'provider' : '';
    if (missing) flow.fail('invalid_config', `the ${missing} attribute is required`);
    else flow.begin();
    return flow.promise;
  }

  /** Ends the running flow with `connect-cancel` (`reason: 'cancelled'`). */
  cancel(): void {
    this.flow?.cancel('cancelled');
  }

  protected override render() {
    const state = this.current;
    const busy = RUNNING.has(state);
    let status = '';
    if (state === 'authorizing' && this.blockedUrl) status = this.text('blocked');
    else if (state === 'error') status = `${this.text('error')}: ${this.flow?.error?.message}`;
    else if (state !== 'idle') status = this.text(state);
    // Kept on few lines: template text is shipped as written.
    const fallback = this.blockedUrl
      ? html`<button part="fallback" type="button" @click=${this.handleFallback}>${this.text('openPopup')}</button>`
      : nothing;
    return html`<button part="button" type="button" ?disabled=${this.disabled} aria-disabled=${busy} aria-busy=${busy} @click=${this.handleClick}><slot>${this.text(this.connectionId ? 'reconnect' : 'connect')}</slot></button><span part="status" role="status">${status}</span>${fallback}`;
  }
}
