import { ReactiveElement, type PropertyValues } from '@lit/reactive-element';
import type { Connection } from '../shared/types.js';
import { styles } from './connect-provider.styles.js';
import type { ConnectError } from './events.js';
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
export class ConnectProvider extends ReactiveElement {
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
  /**
   * Ms the element keeps asking the backend about a popup that reads closed with no outcome (it may be severed by
   * the provider's Cross-Origin-Opener-Policy while the user still signs in) before it ends `popup_closed`.
   */
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
  private flow?: Flow;
  private lastConnection?: Connection;
  /** The shadow DOM, built once: a button around a slot, the status line, and the fallback or stop button when shown. */
  private parts?: { button: HTMLButtonElement; slot: HTMLSlotElement; status: HTMLElement; extra: HTMLButtonElement };

  constructor() {
    super();
    this.endpoint = '';
    this.provider = '';
    this.pollInterval = 1000;
    this.timeout = 300000;
    this.popupWidth = 600;
    this.popupHeight = 720;
    this.closedGrace = 120000;
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
    // A move (removed and re-inserted in the same task) keeps the flow; a removal ends it.
    const flow = this.flow;
    setTimeout(() => this.isConnected || flow?.cancel('cancelled'));
  }

  /**
   * Test hook, not part of the contract: how many timers, requests and
   * listeners the current flow still holds (0 once it ended).
   * @internal
   */
  get held(): number {
    return this.flow?.held ?? 0;
  }

  private handleClick(): void {
    if (this.disabled || RUNNING.has(this.current)) return;
    // The outcome is told through events; a click has nobody to reject to.
    this.start().catch(() => {});
  }

  private handleExtra(): void {
    if (this.flow?.severed) this.flow.stopWaiting();
    else this.flow?.openBlocked();
    // The extra button disappears: keep focus in the element.
    this.parts!.button.focus();
  }

  /** A user-facing string, with the provider's name. */
  private text(key: keyof ConnectStrings, provider: string): string {
    const name = provider ? provider[0].toUpperCase() + provider.slice(1) : '';
    return { ...DEFAULT_STRINGS, ...this.strings }[key].replace('{provider}', name).trim();
  }

  /**
   * Starts a flow. Call it from a user gesture (a click), so the popup may
   * open. Resolves with the connection once `working`; rejects with a
   * ConnectError otherwise. During a flow it returns that flow's promise.
   */
  start(): Promise<Connection> {
    if (this.flow && !this.flow.done) return this.flow.promise;
    const mode = this.connectionId ? 'update' : 'create';
    const body: Record<string, unknown> = {};
    for (const key of HINTS) body[key] = this[key];
    const flow: Flow = new Flow(
      {
        emit: (type, detail, cancelable) =>
          this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable })),
        changed: () => {
          if (this.flow !== flow) return;
          // Reflected at once, so a listener reads the state that follows its event.
          this.setAttribute('state', (this.current = flow.state));
          this.requestUpdate();
        },
        saw: (connection) => (this.lastConnection = connection),
      },
      {
        endpoint: this.endpoint,
        mode,
        provider: this.provider,
        connectionId: this.connectionId,
        body,
        headers: { ...this.requestHeaders },
        pollInterval: Math.max(10, this.pollInterval || 1000),
        timeout: Math.max(1, this.timeout || 300000),
        closedGrace: Math.max(0, this.closedGrace),
        popupWidth: this.popupWidth,
        popupHeight: this.popupHeight,
        messageOrigins: this.messageOrigins,
        popupText: this.text('popup', this.provider),
      },
    );
    this.flow = flow;
    flow.begin();
    return flow.promise;
  }

  /** Ends the running flow with `connect-cancel` (`reason: 'cancelled'`). */
  cancel(): void {
    this.flow?.cancel('cancelled');
  }

  /** Renders by hand (no template engine: the bundle stays small); text is set as text, never parsed as HTML. */
  protected override update(changed: PropertyValues): void {
    super.update(changed);
    const make = <K extends keyof HTMLElementTagNameMap>(tag: K, part: string, parent?: Node) => {
      const element = document.createElement(tag);
      element.setAttribute('part', part);
      parent?.appendChild(element);
      return element;
    };
    const root = this.renderRoot;
    let parts = this.parts;
    if (!parts) {
      const button = make('button', 'button', root);
      const status = make('span', 'status', root);
      const extra = make('button', '');
      button.type = extra.type = 'button';
      button.onclick = () => this.handleClick();
      extra.onclick = () => this.handleExtra();
      status.setAttribute('role', 'status');
      parts = this.parts = { button, slot: button.appendChild(document.createElement('slot')), status, extra };
    }
    const { current: state, flow } = this;
    const busy = RUNNING.has(state);
    const code = flow?.error?.code;
    const { button, slot, status, extra } = parts;
    button.disabled = this.disabled;
    button.setAttribute('aria-disabled', String(busy));
    button.setAttribute('aria-busy', String(busy));
    // Texts tell of the flow: its provider while it runs, and in the status line of its outcome.
    const provider = busy ? flow!.provider : this.provider;
    slot.textContent = this.text(this.connectionId ? 'reconnect' : 'connect', provider);
    status.textContent =
      state === 'idle'
        ? ''
        : this.text(
            flow!.blockedUrl
              ? 'blocked'
              : flow!.severed
                ? 'waiting'
                : state === 'error' && code! in DEFAULT_STRINGS
                  ? (code as 'error')
                  : state,
            flow!.provider,
          );
    const part = busy && (flow!.blockedUrl ? 'fallback' : flow!.severed && 'stop');
    if (part) {
      extra.setAttribute('part', part);
      extra.textContent = this.text(part === 'stop' ? 'stopWaiting' : 'openPopup', provider);
      root.appendChild(extra);
    } else extra.remove();
  }
}
