import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { Connection } from '../shared/types.js';
import { connectProviderStyles } from './connect-provider.styles.js';
import { renderControl, renderIcon } from './parts.js';
import { CredentialForm } from './credential-form.js';
import { CurrentFlow } from './current-flow.js';
import { misconfigured, warnOnce } from './developer-messages.js';
import { Disconnect } from './disconnect.js';
import { ConnectError, type ConnectEventDetails, type DetailWithoutProvider } from './events.js';
import { KeepFocus } from './keep-focus.js';
import { LinkWay } from './link-way.js';
import { displayNameOf, Localize } from './localize.js';
import { publicState, type ConnectState } from './machine.js';
import { RestState } from './rest-state.js';
import { flowStatusKey, statusLine } from './status.js';
import { DEFAULT_STRINGS, type ConnectStrings } from './strings.js';
import { TIMING_BOUNDS } from './timing.js';

/**
 * @summary A button that connects the user's third-party account through the platform's OAuth popup, verifies that
 * the connection works, and at rest shows whether the user is connected, with reconnect and disconnect.
 *
 * @event connect-start - A flow begins (cancelable). `{ mode, scheme }`
 * @event connect-popup - The popup is sent to the OAuth URL. `{ url }`
 * @event connect-popup-blocked - The browser blocked the popup; a fallback button is shown. `{ url }`
 * @event connect-link - No window can open: the link is shown (text, Copy, QR code) and awaited. `{ url, reason }`
 * @event connect-connection - The connection ID becomes known. `{ connectionId }`
 * @event connect-status - The polled status changed. `{ status, connection }`
 * @event connect-success - Terminal: the connection is `working`. `{ connection }`
 * @event connect-error - Terminal: anything that failed. `{ code, message, problem?, connection? }`
 * @event connect-cancel - Terminal: the popup was closed or `cancel()` ran. `{ reason }`
 * @event connect-loaded - The caller's connection was read at rest. `{ connection }` (`null`: none)
 * @event connect-disconnect - The connection was disconnected. `{ connection }`
 *
 * @slot - The button's label (default "Connect <provider>", or "Reconnect <provider>" with a connection).
 *
 * @csspart button - The connect button.
 * @csspart icon - The provider's icon in the button.
 * @csspart status - The status line (`role="status"`).
 * @csspart fallback - The button that opens a blocked popup.
 * @csspart stop - The button that stops waiting for a popup that reads closed.
 * @csspart field - An input the provider needs (a workspace, an account ID, a credential).
 * @csspart reveal - The button that shows a masked input's value (its pressed state tells whether it is shown).
 * @csspart link - An input's "Where to find it" link; the link way's consent link (as text).
 * @csspart copy - The link way's button that copies the consent link.
 * @csspart qr - The link way's QR code of the consent link (an SVG).
 * @csspart back - The button that closes a form a click opened (a reconnect's credentials, or inputs on demand).
 * @csspart cancel - The button that stops a form's request in flight.
 * @csspart disconnect - The disconnect button, and the one that confirms it.
 * @csspart keep - The button that keeps the connection when asked to confirm a disconnect.
 *
 * @cssproperty --connect-provider-background - Button background.
 * @cssproperty --connect-provider-color - Button text color.
 * @cssproperty --connect-provider-border - Button border.
 * @cssproperty --connect-provider-radius - Button corner radius.
 * @cssproperty --connect-provider-padding - Button padding.
 * @cssproperty --connect-provider-font - Button font.
 * @cssproperty --connect-provider-focus-ring - Focus outline.
 * @cssproperty --connect-provider-status-color - Status line text color (default: the page's text color).
 * @cssproperty --connect-provider-error-color - The status line's marker after an error.
 * @cssproperty --connect-provider-success-color - The status line's marker once connected.
 * @cssproperty --connect-provider-link-color - An input's docs link (default: the page's text color).
 */
export class ConnectProvider extends LitElement {
  static override styles = connectProviderStyles;
  /**
   * The public properties, the one table of them: each attribute reflects the camelCase property below, and the
   * framework typings (frameworks/attributes.ts) and the manifest are derived from it. Declared here rather than by
   * decorators (their calls cost 364 bytes gzip in the element's bundle). The element's internal state lives in its
   * controllers, which update it when they change.
   */
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
    disconnectable: { type: Boolean, reflect: true },
    compact: { type: Boolean, reflect: true },
    formOnDemand: { type: Boolean, attribute: 'form-on-demand', reflect: true },
    providerMetadata: { attribute: false },
    requestHeaders: { attribute: false },
    strings: { attribute: false },
  } as const;

  /** Base URL of the host backend's connect routes, e.g. `/api/connect`. */
  endpoint = '';
  /** The provider to connect (required unless `connection-id` is set). */
  provider = '';
  /** Hint forwarded to the backend. */
  groupRef?: string;
  /** Hint forwarded to the backend. */
  groupName?: string;
  /** Hint forwarded to the backend. */
  consumerRef?: string;
  /** Hint forwarded to the backend. */
  consumerName?: string;
  /** The provider workspace (for example a subdomain), forwarded to the backend. */
  providerWorkspaceRef?: string;
  /** A provider app other than the project's default, forwarded to the backend. */
  providerAppId?: string;
  /** When set, the element re-authorizes this connection (update mode). */
  connectionId?: string;
  /** Base polling interval in ms (100 to 60000). */
  pollInterval: number = TIMING_BOUNDS.pollInterval[2];
  /** Ms from opening the popup to giving up (1000 to 3600000). */
  timeout: number = TIMING_BOUNDS.timeout[2];
  /** Popup width in CSS px. */
  popupWidth = 600;
  /** Popup height in CSS px. */
  popupHeight = 720;
  /**
   * Ms the element keeps asking the backend about a popup that reads closed with no outcome (it may be severed by
   * the provider's Cross-Origin-Opener-Policy while the user still signs in) before it ends `popup_closed`.
   */
  closedGrace: number = TIMING_BOUNDS.closedGrace[2];
  /** Space-separated extra origins whose messages the element trusts. */
  messageOrigins = '';
  /** Disables the button. */
  disabled = false;
  /** Offers to disconnect an existing connection. */
  disconnectable = false;
  /**
   * The element as a row of a list, which names the provider and shows its state: button labels without the
   * provider's name (their accessible names keep it), the rest state's line visually hidden (still the button's
   * description), and a connection that could not be read never guessed as none.
   */
  compact = false;
  /** The inputs a new connection needs (credentials, a workspace, metadata) open on the Connect click, not before. */
  formOnDemand = false;
  /** Provider metadata forwarded to the backend (property only). */
  providerMetadata?: Record<string, unknown>;
  /** Extra headers for backend calls, e.g. a CSRF token (property only). */
  requestHeaders?: Record<string, string>;
  /** Replacements for the user-facing strings (property only). */
  strings: Partial<ConnectStrings> = {};

  #localize = new Localize(this, DEFAULT_STRINGS);
  /** The developer's messages, each said once. */
  #warn = warnOnce('connect-provider');
  #rest: RestState = new RestState(
    this,
    () => (this.#current.busy ? this.#current.flow : undefined),
    (connection) => this.#emit('connect-loaded', { connection }),
  );
  #form = new CredentialForm(
    this,
    this.#rest,
    (key, field) => this.#text(key, undefined, field),
    () => this.#handleClick(),
    () => this.#disconnect.step === 'failed' && (this.#disconnect.step = 'idle'),
  );
  #disconnect = new Disconnect(
    this,
    this.#rest,
    (key) => this.#text(key),
    this.#warn,
    (connection) => {
      this.#rest.removed(connection);
      this.#current.flow = undefined;
      this.#emit('connect-disconnect', { connection });
    },
    () => {
      this.#acted = true;
      this.#form.say();
    },
  );
  #current: CurrentFlow = new CurrentFlow(
    this,
    this.#rest,
    this.#form,
    (type, detail, provider) => this.#emit(type, detail, provider),
    () => this.#text('popup'),
    this.#warn,
  );
  #linkWay = new LinkWay(this);
  /** The user acted here (a flow, a disconnect, an input's problem): from then on the status line is announced. */
  #acted = false;

  /** The flow's state, reflected as the `state` attribute. Read-only. */
  get state(): ConnectState {
    return publicState(this.#current.flow?.state.name ?? 'idle');
  }

  /** The caller's connection (at rest, or the last a flow saw), never with credentials. Read-only. */
  get connection(): Connection | undefined {
    return this.#rest.connection;
  }

  /** The last error. Read-only. */
  get error(): ConnectError | undefined {
    return this.#current.flow?.error;
  }

  /** @internal Test hook, not part of the contract: what the current flow still holds (0 once it ended). */
  get held(): number {
    return this.#current.flow?.held ?? 0;
  }

  constructor() {
    super();
    // The controller is held by the element: it needs no name here.
    new KeepFocus(this);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') || changed.has('provider') || changed.has('connectionId')) void this.#rest.read();
  }

  /** Fires an event whose detail names `provider` (the flow's, else the element's). */
  #emit<K extends keyof ConnectEventDetails>(
    type: K,
    fields: DetailWithoutProvider<K>,
    provider = this.provider,
    cancelable?: boolean,
  ): boolean {
    const detail = { ...fields, provider } as ConnectEventDetails[K];
    return this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
  }

  /** The provider as the user reads it: its displayName once known, else its name with a capital. */
  #displayName(provider = this.provider): string {
    return displayNameOf(provider, this.#rest.infoOf(provider));
  }

  /** A user-facing string, with the provider's name (and a field's) in every place it is asked for. */
  #text = (key: keyof ConnectStrings, provider?: string, field = ''): string =>
    this.#localize.term(key, { provider: this.#displayName(provider), field });

  /**
   * Starts a flow: create, or update when there is a connection (`connection-id`, or the one found at rest). Call
   * it from a user gesture (a click), so the popup may open. Resolves with the connection once `working`; rejects
   * with a ConnectError otherwise. During a flow it returns that flow's promise.
   */
  start(): Promise<Connection> {
    const current = this.#current;
    if (current.flow && !current.flow.done) return current.flow.promise;
    if (this.disabled) return Promise.reject(new ConnectError('invalid_config', 'the element is disabled'));
    const signIn = this.#rest.signIn;
    const scheme = signIn.way;
    this.#acted = true;
    if (this.#form.asksFirst) {
      // A reconnect by form asks for the credentials first, and a row's inputs open on demand: the click opens the form.
      this.#form.open();
      return Promise.reject(new ConnectError('invalid_config', 'fill in the form first'));
    }
    // An empty or malformed input stops here, before any event, request or popup.
    const request = this.#form.request(signIn);
    if (request instanceof ConnectError) return Promise.reject(request);
    const { body, credential } = request;
    const previous = current.flow;
    const flow = current.create(body, scheme);
    if (!this.#emit('connect-start', { mode: flow.mode, scheme }, flow.provider, true)) {
      flow.withdraw();
      // Nothing happened: the element shows what it showed before.
      current.flow = current.flow === flow ? previous : current.flow;
      return flow.promise;
    }
    // A listener of connect-start may have cancelled.
    if (flow.state.name !== 'idle') return flow.promise;
    this.#disconnect.step = 'idle';
    this.#form.say();
    // A missing attribute, or a scheme the element cannot sign in with (jwt), ends here, named.
    const message = misconfigured(this, flow.mode, this.#rest.providerInfo);
    if (message) {
      this.#warn(message);
      flow.fail('invalid_config', message);
    } else if (scheme === 'popup') flow.begin(current.noWindow);
    else {
      flow.submit(credential);
      this.#form.clear();
    }
    return flow.promise;
  }

  /** Ends the running flow with `connect-cancel` (`reason: 'cancelled'`). */
  cancel(): void {
    this.#current.flow?.cancel('cancelled');
  }

  /**
   * Disconnects the caller's connection (`DELETE {endpoint}/connections/{id}`). Resolves once done, with
   * `connect-disconnect`; rejects with a ConnectError and keeps the connection when the backend refuses. Not a flow:
   * it emits none of the flow's events.
   */
  disconnect(): Promise<void> {
    return this.#disconnect.run();
  }

  #handleClick(): void {
    this.#acted = true;
    // Waiting for a popup that reads closed, a click is the user starting over: a new flow, inside this click.
    const { flow } = this.#current;
    if (flow?.state.name === 'severed') flow.cancel('cancelled');
    if (this.disabled || this.#current.busy || this.#rest.reading) return;
    // The outcome is told through events; a click has nobody to reject to.
    const start = () => this.start().catch(() => {});
    // What a failed read left unknown is read first; else the popup opens inside this click.
    if (this.#rest.failed) void this.#rest.read().then(start);
    else void start();
  }

  /**
   * The status line: a missing input, else the disconnect's, the flow's, or the rest state's; `rest`: it tells only
   * what a read at rest found (a list's row shows it in its badge).
   */
  #status(): [text: string, tone: string, rest: boolean] {
    if (this.#form.problem) return [this.#form.problem, 'error', false];
    const { flow } = this.#current;
    const state = flow?.state;
    const [key, tone = '', ofFlow] = statusLine(state, this.#disconnect.step, this.#rest.existing) ?? [];
    const rest = this.#disconnect.step === 'idle' && !(state && flowStatusKey(state)) && state?.name !== 'working';
    return [key ? this.#text(key, ofFlow ? flow?.provider : undefined) : '', tone, rest];
  }

  #renderButton(provider: string, busy: boolean): TemplateResult {
    const existing = this.#rest.existing;
    const { flow, neverWorked } = this.#current;
    const reconnect = busy
      ? flow!.mode === 'update' && flow!.connectionId !== neverWorked
      : !!this.connectionId || (!!existing && existing.id !== neverWorked);
    // While the connection is read, neutral: the provider's name, no guess at Connect or Reconnect (and no click until
    // the provider's info is read too). A row never guesses: a connection the read could not tell stays unknown.
    const neutral = this.#rest.reading && !busy;
    const unknown = existing === undefined && (neutral || (this.compact && !busy));
    const full = this.#text(reconnect ? 'reconnect' : 'connect', provider);
    const label =
      (unknown ? '' : this.compact ? this.#text(reconnect ? 'reconnectShort' : 'connectShort') : full) ||
      this.#displayName(provider) ||
      'Connect';
    // A flow's button is never `disabled` (the focus would be lost); a neutral one is, when the host says so.
    const disabled = this.disabled && !busy;
    busy ||= neutral;
    return html`<button
      part="button"
      type="button"
      ?disabled=${disabled}
      aria-label=${this.compact && !unknown ? full : nothing}
      aria-describedby="status"
      aria-disabled=${busy || this.disabled}
      aria-busy=${busy}
      @click=${this.#handleClick}
    >${
      // A row shows the icon by the provider's name: its button does not repeat it.
      this.compact
        ? nothing
        : renderIcon(this.#rest.infoOf(provider), this.#rest.info === undefined && !!this.provider && !!this.endpoint)
    }<slot>${label}</slot></button
    >`;
  }

  /** The control a waiting flow offers: open a blocked popup, or stop waiting for a severed one; or the form's Back. */
  #renderControls(provider: string, busy: boolean): TemplateResult | typeof nothing {
    const { flow } = this.#current;
    const name = flow?.state.name;
    if (name === 'blocked')
      return renderControl('fallback', this.#text('openPopup', provider), () => flow?.openBlocked());
    if (name === 'severed')
      return renderControl('stop', this.#text('stopWaiting', provider), () => flow?.stopWaiting());
    // A form's request in flight can be stopped; the connection is then read again, for the truth.
    if (busy && this.#form.sending) return renderControl('cancel', this.#text('cancel'), () => this.cancel());
    // The way back from a form a click opened: its inputs go, emptied, and the connection stays as it is.
    if (!busy && this.#form.opened && (this.#rest.updating ? this.#rest.signIn.way === 'form' : this.formOnDemand))
      return renderControl('back', this.#text('back'), () => this.#form.close(true));
    return nothing;
  }

  protected override render() {
    const { busy, flow, scheme } = this.#current;
    // Texts tell of the flow: its provider while it runs.
    const provider = busy ? flow!.provider : this.provider;
    const [text, tone, rest] = this.#status();
    // A form's request keeps its form in place, read-only, until the outcome: nothing moves under the pointer.
    const sending = (this.#form.sending = busy && scheme === 'form');
    const state = flow?.state;
    return html`${busy && !sending ? nothing : this.#form.render()}${this.#renderButton(
      provider,
      busy,
    )}${this.#renderControls(provider, busy)}${this.#disconnect.render(busy)}<span
        part="status"
        role="status"
        aria-live=${this.#acted ? 'polite' : 'off'}
        class=${`${tone}${rest && this.compact ? ' visually-hidden' : ''}`}
        id="status"
        >${text}</span
      >${
        state?.name === 'linked'
          ? this.#linkWay.render(
              state.url,
              (key) => this.#text(key, provider),
              () => flow?.stopWaiting(),
            )
          : nothing
      }`;
  }
}
