import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { Connection } from '../shared/types.js';
import type { BrowserProvider } from '../shared/provider.js';
import { isAllowedUrl } from '../shared/url.js';
import { isWorkspaceRef, WORKSPACE_REF_PATTERN } from '../shared/provider.js';
import { credentialOf, signInOf, type CredentialInput, type SignIn } from '../shared/sign-in.js';
import { BackendError, connectionPath } from './backend.js';
import { Lifetime } from './lifetime.js';
import { styles } from './connect-provider.styles.js';
import { stampOf } from './connection-match.js';
import { ConnectError, type ConnectEventDetails, type DetailWithoutProvider } from './events.js';
import { Flow } from './flow.js';
import { langOf, localeFor, onLocaleChange, type LocaleStrings } from './locales.js';
import { publicState, type ConnectState } from './machine.js';
import {
  announce,
  endpointKey,
  onConnectionChange,
  pickConnection,
  readConnections,
  readProvider,
  requestAtRest,
  type ConnectionChange,
  type ConnectionList,
} from './page-reads.js';
import { refusesProvider, statusLine, type DisconnectStep } from './status.js';
import { DEFAULT_STRINGS, type ConnectStrings } from './strings.js';

/** What the backend's oauth-connect gets from the element's attributes. */
const HINTS = [
  'groupRef',
  'groupName',
  'consumerRef',
  'consumerName',
  'providerWorkspaceRef',
  'providerAppId',
] as const;

/** Bounds of the timing attributes: outside them, the nearest bound (and one console warning). */
const BOUNDS = {
  pollInterval: [100, 60000, 1000],
  timeout: [1000, 3600000, 300000],
  closedGrace: [0, 1800000, 120000],
} as const;

/** A page hidden this long reads the connection again when it is shown. */
const STALE_AFTER_HIDDEN = 60000;
/** Ms the button stays neutral while the connection is read; then it offers Connect. */
const NEUTRAL_FOR = 3000;

/** An input the provider needs before its consent page opens. */
interface Field {
  /** `workspace`, a `metadata.input` item's name, or a credential's (`apiKey`, `username`...). */
  name: string;
  label: string;
  prompt?: string;
  /** Where to find it: shown when https (or http on a loopback host). */
  docsURL?: string;
  /** What the input holds: the user's value, else the provider's default. A credential's is never kept. */
  value?: string;
  workspace?: boolean;
  /** A credential: read from its input when sent, then emptied. */
  credential?: boolean;
  masked?: boolean;
  options?: Array<{ value: string; label: string }>;
}

/**
 * @summary A button that connects the user's third-party account through the platform's OAuth popup, verifies that
 * the connection works, and at rest shows whether the user is connected, with reconnect and disconnect.
 *
 * @event connect-start - A flow begins (cancelable). `{ mode, scheme }`
 * @event connect-popup - The popup is sent to the OAuth URL. `{ url }`
 * @event connect-popup-blocked - The browser blocked the popup; a fallback button is shown. `{ url }`
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
 * @csspart link - An input's "Where to find it" link.
 * @csspart back - The button that closes the reconnect form of a provider that signs in with credentials.
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
  static override styles = styles;
  /**
   * The reactive properties, declared here rather than by decorators (their calls cost 364 bytes gzip in the
   * element's bundle): each attribute reflects the camelCase property below; `state: true` is internal state.
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
    providerMetadata: { attribute: false },
    requestHeaders: { attribute: false },
    strings: { attribute: false },
    flow: { state: true },
    existing: { state: true },
    info: { state: true },
    values: { state: true },
    inputProblem: { state: true },
    disconnectStep: { state: true },
    reconnectForm: { state: true },
    reading: { state: true },
  };

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
  pollInterval = 1000;
  /** Ms from opening the popup to giving up (1000 to 3600000). */
  timeout = 300000;
  /** Popup width in CSS px. */
  popupWidth = 600;
  /** Popup height in CSS px. */
  popupHeight = 720;
  /**
   * Ms the element keeps asking the backend about a popup that reads closed with no outcome (it may be severed by
   * the provider's Cross-Origin-Opener-Policy while the user still signs in) before it ends `popup_closed`.
   */
  closedGrace = 120000;
  /** Space-separated extra origins whose messages the element trusts. */
  messageOrigins = '';
  /** Disables the button. */
  disabled = false;
  /** Offers to disconnect an existing connection. */
  disconnectable = false;
  /** Provider metadata forwarded to the backend (property only). */
  providerMetadata?: Record<string, unknown>;
  /** Extra headers for backend calls, e.g. a CSRF token (property only). */
  requestHeaders?: Record<string, string>;
  /** Replacements for the user-facing strings (property only). */
  strings: Partial<ConnectStrings> = {};

  private flow?: Flow;
  /** The caller's connection at rest: undefined while unknown, null when none. */
  private existing?: Connection | null;
  private info?: BrowserProvider | null;
  private values: Record<string, string> = {};
  /** A missing or malformed input the last click met, said in the status line until the next action. */
  private inputProblem = '';
  /** The name of the input that inputProblem is about. */
  #problemField?: string;
  private disconnectStep: DisconnectStep = 'idle';
  /** The credential form of a connection's reconnect is open (a provider that signs in with credentials). */
  private reconnectForm = false;
  /** The backend refused DELETE (405): Disconnect is not offered again. */
  #cannotDisconnect?: boolean;
  /** The connection is being read, for less than NEUTRAL_FOR ms: the button is neutral and busy. */
  private reading = false;
  /** The last read at rest failed though that may pass: read again on `online`, when shown, and on a click. */
  #readFailed?: boolean;
  /** The last connection a flow read (it may be newer than `existing`). */
  #flowConnection?: Connection;
  #warned = new Set<string>();
  #hiddenAt?: number;
  /** What the element listens to while it is in the page (connection changes, languages, visibility, `online`). */
  #connected?: Lifetime;
  /** The registered pack for the element's language (section 2, "Languages and direction"), found at each update. */
  #pack?: Partial<LocaleStrings>;
  /** Counts reads at rest: an answer to any but the latest is dropped. */
  #readId = 0;
  /** The shadow element that had the focus before an update. */
  #focusedBefore?: Element | null;

  /** The flow's state, reflected as the `state` attribute. Read-only. */
  get state(): ConnectState {
    return publicState(this.flow?.state.name ?? 'idle');
  }

  /** A flow runs: a click then does nothing. */
  get #busy(): boolean {
    return !!this.flow?.busy;
  }

  /** The caller's connection (at rest, or the last a flow saw), never with credentials. Read-only. */
  get connection(): Connection | undefined {
    return this.#flowConnection ?? this.existing ?? undefined;
  }

  /** The last error. Read-only. */
  get error(): ConnectError | undefined {
    return this.flow?.error;
  }

  /**
   * Test hook, not part of the contract: how many timers, requests and listeners the current flow still holds
   * (0 once it ended).
   * @internal
   */
  get held(): number {
    return this.flow?.held ?? 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const connected = (this.#connected = new Lifetime());
    connected.onEnd(onConnectionChange((key, change) => this.#onConnectionChange(key, change)));
    connected.onEnd(onLocaleChange(() => this.requestUpdate()));
    connected.listen(document, 'visibilitychange', () => this.#onVisibility());
    connected.listen(window, 'online', () => this.#readIfFailed());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#connected?.end();
    // A move (removed and re-inserted in the same task) keeps the flow; a removal ends it.
    const flow = this.flow;
    setTimeout(() => this.isConnected || flow?.cancel('cancelled'));
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Where the focus was before this update, for updated() to keep it in the element.
    this.#focusedBefore = this.shadowRoot?.activeElement;
    this.#pack = localeFor(langOf(this));
    if (changed.has('endpoint') || changed.has('provider') || changed.has('connectionId')) {
      this.#read();
    }
  }

  protected override updated(): void {
    // A control that disappeared on its own (fallback, stop, confirm) took the focus with it: keep it in the element.
    if (this.#focusedBefore && !this.#focusedBefore.isConnected)
      this.shadowRoot?.querySelector<HTMLElement>('[part=button]')?.focus();
    this.#focusedBefore = undefined;
  }

  #onVisibility(): void {
    if (document.hidden) this.#hiddenAt = Date.now();
    else if (this.#hiddenAt && Date.now() - this.#hiddenAt >= STALE_AFTER_HIDDEN) this.#read();
    else this.#readIfFailed();
  }

  /** A read that failed though it may pass is read again (on `online`, when the page is shown). */
  #readIfFailed(): void {
    if (this.#readFailed && !this.#busy) this.#read();
  }

  /**
   * Reads the caller's connection and the provider's info at rest; resolves once both answered, or after NEUTRAL_FOR
   * ms without them. Until then the button is neutral.
   */
  #read(): Promise<unknown> {
    const { endpoint, provider, connectionId } = this;
    // Unknown until this read answers (an answer to an earlier one is dropped).
    this.#showExisting(undefined);
    const id = this.#readId;
    this.#flowConnection = undefined;
    this.#readFailed = false;
    if (!endpoint || (!provider && !connectionId)) return Promise.resolve();
    const headers = { ...this.requestHeaders };
    this.reading = true;
    const reads = [
      readConnections(endpoint, headers).then((list) => id === this.#readId && this.#loaded(list)),
      provider &&
        readProvider(endpoint, provider, headers).then((info) => {
          if (id !== this.#readId) return;
          this.info = info;
          this.#readFailed ||= info === undefined;
        }),
    ];
    if (provider) this.info = undefined;
    return new Promise((answered) => {
      setTimeout(answered, NEUTRAL_FOR);
      void Promise.all(reads).then(answered);
    }).then(() => id === this.#readId && (this.reading = false));
  }

  /** Another element's flow or disconnect changed a connection of the endpoint: follow it, with no request. */
  #onConnectionChange(key: string, change: ConnectionChange): void {
    if (!this.endpoint || key !== endpointKey(this.endpoint)) return;
    if (this.#busy) {
      // A flow on a connection another element disconnected ends now, its popup closed before it lands on an error.
      if ('removed' in change && change.removed === this.flow!.connectionId) this.flow!.gone();
      return;
    }
    if ('removed' in change) {
      if (this.existing?.id === change.removed) this.#showExisting(null);
    } else if (pickConnection([change.connection], this.provider, this.connectionId, this.providerWorkspaceRef))
      this.#showExisting(change.connection);
  }

  /** The rest state follows a change newer than any read in flight: that read's answer is dropped. */
  #showExisting(connection: Connection | null | undefined): void {
    this.#readId++;
    this.existing = connection;
    this.#reflectStatus();
  }

  /**
   * The read at rest answered: the list of the caller's connections; null when the backend cannot tell (no list
   * route), undefined when the read failed though it may pass.
   */
  #loaded(list: ConnectionList): void {
    this.#readFailed ||= list === undefined;
    const found = list
      ? (pickConnection(list, this.provider, this.connectionId, this.providerWorkspaceRef) ?? null)
      : undefined;
    this.existing = found;
    this.#flowConnection = undefined;
    this.#reflectStatus();
    if (found !== undefined) this.#emit('connect-loaded', { connection: found });
  }

  /** Writes an attribute on the host, or removes it when there is no value. */
  #reflect(name: string, value?: string): void {
    if (value) this.setAttribute(name, value);
    else this.removeAttribute(name);
  }

  /** Only a state other than the default is written on the host: server-rendered markup and the client agree. */
  #reflectState(): void {
    this.#reflect('state', this.state === 'idle' ? '' : this.state);
  }

  /** `none` once read without a connection; no attribute while unknown. */
  #reflectStatus(): void {
    this.#reflect('connection-status', this.existing === null ? 'none' : this.existing?.status);
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

  /** How the element's provider signs in: by its info once read; without one, through the popup. */
  get #signIn(): SignIn {
    return signInOf(this.info?.name === this.provider ? this.info : undefined);
  }

  /** The mode a click starts: update when there is a connection (`connection-id`, or the one found at rest). */
  get #connectionToUpdate(): string | undefined {
    return this.connectionId || this.existing?.id;
  }

  #credentialElements(): HTMLInputElement[] {
    return [...(this.shadowRoot?.querySelectorAll<HTMLInputElement>('[data-credential]') ?? [])];
  }

  #warn(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    console.warn(`<connect-provider>: ${message}`);
  }

  /** A timing attribute within its bounds; a value outside them is warned of once. */
  #bounded(name: keyof typeof BOUNDS, value: number): number {
    const [min, max, fallback] = BOUNDS[name];
    const used = Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
    if (used !== value) this.#warn(`${name} ${value} is outside ${min} to ${max} ms; using ${used}`);
    return used;
  }

  /** The provider as the user reads it: its displayName once known, else its name with a capital. */
  #displayName(provider = this.provider): string {
    const known = this.info?.name === provider ? this.info.displayName : undefined;
    return known || (provider ? provider[0].toUpperCase() + provider.slice(1) : '');
  }

  /** A user-facing string, with the provider's name (and a field's) in every place it is asked for. */
  #text(key: keyof ConnectStrings, provider?: string, field = ''): string {
    const text = this.strings?.[key] ?? this.#pack?.[key] ?? DEFAULT_STRINGS[key];
    // Replaced by functions: a name holding `$&` or `$'` stays as written.
    const name = this.#displayName(provider);
    return String(text)
      .replaceAll('{provider}', () => name)
      .replaceAll('{field}', () => field)
      .trim();
  }

  /**
   * The inputs the provider needs that the host did not set, then its credential inputs: a new connection's, or
   * those of an open reconnect form.
   */
  #fields(): Field[] {
    const info = this.info;
    if (!info || info.name !== this.provider) return [];
    const signIn = this.#signIn;
    const credentials = (signIn.way === 'form' ? signIn.inputs : []).map(
      ({ label, ...input }: CredentialInput): Field => ({
        ...input,
        label: 'text' in label ? label.text : this.#text(label.builtIn),
        credential: true,
      }),
    );
    if (this.#connectionToUpdate) return this.reconnectForm ? credentials : [];
    const fields: Field[] = [];
    if (info.oauth2Opts?.explicitWorkspaceRequired && !this.providerWorkspaceRef)
      fields.push({
        name: 'workspace',
        label: this.#text('workspace'),
        value: this.values.workspace ?? '',
        workspace: true,
      });
    for (const { name, displayName, prompt, docsURL, defaultValue } of info.metadata?.input ?? []) {
      if (this.providerMetadata && name in this.providerMetadata) continue;
      fields.push({
        name,
        label: displayName || name,
        prompt,
        docsURL,
        value: this.values[name] ?? defaultValue ?? '',
      });
    }
    return fields.concat(credentials);
  }

  #handleClick(): void {
    // Waiting for a popup that reads closed, a click is the user starting over: a new flow, inside this click.
    if (this.flow?.state.name === 'severed') this.flow.cancel('cancelled');
    if (this.disabled || this.#busy || this.reading) return;
    // The outcome is told through events; a click has nobody to reject to.
    const start = () => this.start().catch(() => {});
    // What a failed read left unknown is read first; else the popup opens inside this click.
    if (this.#readFailed) void this.#read().then(start);
    else void start();
  }

  #handleDisconnect(): void {
    if (this.disconnectStep === 'disconnecting') return;
    if (this.disconnectStep !== 'confirming') {
      this.disconnectStep = 'confirming';
      this.inputProblem = '';
      return;
    }
    this.disconnect().catch(() => {});
  }

  #handleKeep(): void {
    this.disconnectStep = 'idle';
  }

  /** Escape in the confirmation keeps the connection, as a dialog's Escape would. */
  #handleConfirmKey(event: KeyboardEvent): void {
    if (event.key === 'Escape' && this.disconnectStep === 'confirming') this.#handleKeep();
  }

  /** The reconnect form's way back: its inputs go, emptied, and the connection stays as it is. */
  #handleBack(): void {
    for (const input of this.#credentialElements()) input.value = '';
    this.reconnectForm = false;
    this.inputProblem = '';
  }

  /** Enter in an input submits, as in a form. */
  #handleKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    this.#handleClick();
  }

  #handleInput(event: Event): void {
    const input = event.target as HTMLInputElement;
    // A credential stays in its input alone; typing into it answers the problem (an empty one, Chromium's input event
    // on focus, does not).
    if (input.dataset.credential !== undefined) return void (input.value && (this.inputProblem = ''));
    // Only a changed value answers the problem (Chromium fires input on a focused empty field too).
    if ((this.values[input.name] ?? '') === input.value) return;
    this.values = { ...this.values, [input.name]: input.value };
    this.inputProblem = '';
    if (this.disconnectStep === 'failed') this.disconnectStep = 'idle';
  }

  /**
   * oauth-connect's body from the hints and the inputs, or, when an input is empty or malformed, the input that
   * stops the click (said in the status line and focused).
   */
  /**
   * oauth-connect's body (or generate connection's, without the credential) from the hints and the inputs, and the
   * credential the user typed in the platform's shape (read from its inputs: the element keeps no copy); or, when
   * an input is empty or malformed, the input that stops the click (said in the status line and focused).
   */
  #requestBody(signIn: SignIn): { body: Record<string, unknown>; credential: Record<string, unknown> } | ConnectError {
    const body: Record<string, unknown> = { provider: this.provider };
    for (const key of HINTS) body[key] = this[key];
    const metadata: Record<string, unknown> = { ...this.providerMetadata };
    const typed: Record<string, string> = {};
    for (const field of this.#fields()) {
      const input = this.shadowRoot?.querySelector<HTMLInputElement>(`[part=field][name="${CSS.escape(field.name)}"]`);
      const value = field.credential ? (input?.value ?? '') : field.value!.trim();
      const wrong = !value ? 'required' : field.workspace && !isWorkspaceRef(value) ? 'invalidWorkspace' : '';
      if (wrong) {
        this.inputProblem = this.#text(wrong, undefined, field.label);
        this.#problemField = field.name;
        input?.focus();
        return new ConnectError('invalid_config', `${field.label} is required`);
      }
      if (field.credential) typed[field.name] = value;
      else if (field.workspace) body.providerWorkspaceRef = value;
      else metadata[field.name] = { value, source: 'input' };
    }
    if (Object.keys(metadata).length) body.providerMetadata = metadata;
    return { body, credential: credentialOf(signIn, typed) };
  }

  /** A new flow for this element: update when there is a connection, else create. */
  #newFlow(body: Record<string, unknown>, scheme: SignIn['way']): Flow {
    const connectionId = this.#connectionToUpdate;
    const existing = this.existing?.id === connectionId ? this.existing : undefined;
    // An update by form verifies the connection once the platform changed it after the flow began.
    const stampAtStart = scheme === 'form' && existing ? stampOf(existing) : undefined;
    const flow: Flow = new Flow(
      {
        emit: (type, detail) => this.#emit(type, detail, flow.provider),
        changed: () => {
          if (this.flow !== flow) return;
          // Reflected at once, so a listener reads the state that follows its event.
          this.#reflectState();
          if (flow.done) this.#ended(flow);
          this.requestUpdate();
        },
        connectionRead: (connection) => (this.#flowConnection = connection),
        warn: (message) => this.#warn(message),
      },
      {
        endpoint: this.endpoint,
        request: connectionId
          ? { mode: 'update', connectionId, stampAtStart }
          : {
              mode: 'create',
              provider: this.provider,
              workspace: body.providerWorkspaceRef as string | undefined,
              appId: this.providerAppId,
            },
        provider: this.provider,
        body,
        headers: { ...this.requestHeaders },
        pollInterval: this.#bounded('pollInterval', this.pollInterval),
        timeout: this.#bounded('timeout', this.timeout),
        closedGrace: this.#bounded('closedGrace', this.closedGrace),
        popupWidth: this.popupWidth,
        popupHeight: this.popupHeight,
        messageOrigins: this.messageOrigins,
        popupText: this.#text('popup'),
      },
    );
    return flow;
  }

  /**
   * Starts a flow: create, or update when there is a connection (`connection-id`, or the one found at rest). Call
   * it from a user gesture (a click), so the popup may open. Resolves with the connection once `working`; rejects
   * with a ConnectError otherwise. During a flow it returns that flow's promise.
   */
  start(): Promise<Connection> {
    if (this.flow && !this.flow.done) return this.flow.promise;
    if (this.disabled) return Promise.reject(new ConnectError('invalid_config', 'the element is disabled'));
    const signIn = this.#signIn;
    const scheme = signIn.way;
    if (scheme === 'form' && signIn.inputs.length && this.#connectionToUpdate && !this.reconnectForm) {
      // A reconnect by form asks for the credentials first: the click opens the form.
      this.reconnectForm = true;
      this.inputProblem = '';
      void this.updateComplete.then(() => this.#credentialElements()[0]?.focus());
      return Promise.reject(new ConnectError('invalid_config', 'fill in the reconnect form first'));
    }
    // An empty or malformed input stops here, before any event, request or popup.
    const request = this.#requestBody(signIn);
    if (request instanceof ConnectError) return Promise.reject(request);
    const { body, credential } = request;
    const previous = this.flow;
    const flow = (this.flow = this.#newFlow(body, scheme));
    if (!this.#emit('connect-start', { mode: flow.mode, scheme }, flow.provider, true)) {
      flow.withdraw();
      // Nothing happened: the element shows what it showed before.
      if (this.flow === flow) this.flow = previous;
      this.#reflectState();
      return flow.promise;
    }
    // A listener of connect-start may have cancelled.
    if (flow.state.name !== 'idle') return flow.promise;
    this.disconnectStep = 'idle';
    this.inputProblem = '';
    const missing = !this.endpoint ? 'endpoint' : flow.mode === 'create' && !this.provider ? 'provider' : '';
    if (missing) {
      const message = `the ${missing} attribute is required`;
      this.#warn(message);
      flow.fail('invalid_config', message);
    } else if (scheme === 'popup') flow.begin();
    else {
      flow.submit(credential);
      // Sent: what the user typed leaves the inputs at once, whatever the outcome.
      for (const input of this.#credentialElements()) input.value = '';
    }
    return flow.promise;
  }

  /** The rest state follows the flow's outcome, with no request; the page's other elements hear of it. */
  #ended(flow: Flow): void {
    const state = flow.state;
    const connection = state.name === 'working' ? state.connection : flow.error?.connection;
    // A reconnect by form that failed keeps its form open for another try; one that worked closes it.
    if (state.name === 'working') this.reconnectForm = false;
    const { problem, code } = flow.error ?? {};
    if (code === 'http_error' && problem?.status === 401)
      this.#warn('the backend answered 401: is the user signed in?');
    // A 404 for the flow's own connection: it is gone (disconnected elsewhere), and the element says so.
    const gone = code === 'http_error' && problem?.status === 404 && flow.connectionId;
    if (gone) {
      this.#showExisting(null);
      announce(this.endpoint, { removed: gone });
    }
    if (refusesProvider(problem))
      this.#warn(
        `the backend refused provider "${flow.provider}": ${problem?.detail}; names are the platform's, in lower case`,
      );
    if (!connection) return;
    this.#showExisting(connection);
    announce(this.endpoint, { connection });
  }

  /** Ends the running flow with `connect-cancel` (`reason: 'cancelled'`). */
  cancel(): void {
    this.flow?.cancel('cancelled');
  }

  /**
   * Disconnects the caller's connection (`DELETE {endpoint}/connections/{id}`). Resolves once done, with
   * `connect-disconnect`; rejects with a ConnectError and keeps the connection when the backend refuses. Not a flow:
   * it emits none of the flow's events.
   */
  async disconnect(): Promise<void> {
    const connection = this.existing;
    if (!connection || this.disconnectStep === 'disconnecting' || this.#busy) {
      if (this.disconnectStep === 'confirming') this.disconnectStep = 'idle';
      throw new ConnectError('invalid_config', 'there is no connection to disconnect');
    }
    this.disconnectStep = 'disconnecting';
    this.inputProblem = '';
    try {
      await requestAtRest(this.endpoint, { ...this.requestHeaders }, 'DELETE', connectionPath(connection.id));
    } catch (error) {
      // retrying() throws BackendErrors only.
      const { code, message, problem } = error as BackendError;
      // A 404: the connection is gone already, which is what the user asked for.
      if (problem?.status !== 404) {
        this.disconnectStep = 'failed';
        if (problem?.status === 405) {
          // The backend does not serve DELETE: the control goes, and the developer hears why once.
          this.#cannotDisconnect = true;
          this.#warn('the backend refused DELETE (405): createConnectHandler needs allowDisconnect: true');
        }
        throw new ConnectError(code, message, problem);
      }
    }
    this.disconnectStep = 'done';
    this.#showExisting(null);
    this.#flowConnection = undefined;
    this.flow = undefined;
    this.#reflectState();
    announce(this.endpoint, { removed: connection.id });
    this.#emit('connect-disconnect', { connection });
  }

  /** The status line: a missing input, else the disconnect's, the flow's, or the rest state's. */
  #status(): [text: string, tone: string] {
    if (this.inputProblem) return [this.inputProblem, 'error'];
    const [key, tone = '', ofFlow] = statusLine(this.flow?.state, this.disconnectStep, this.existing) ?? [];
    return [key ? this.#text(key, ofFlow ? this.flow?.provider : undefined) : '', tone];
  }

  /**
   * An input, labelled by its label alone, described by the provider's prompt and docs link (and, when it is what
   * stopped the click, by the status line that says why). A credential's value is never bound. The prompt is the
   * platform's text, in its own direction (`dir="auto"`: an English hint keeps its punctuation on an Arabic page).
   */
  #renderField(field: Field): TemplateResult {
    const { name, options } = field;
    const hint = `${name}-hint`;
    const wrong = !!this.inputProblem && this.#problemField === name;
    const described = `${hint}${wrong ? ' status' : ''}`;
    const control = options
      ? html`<select
          part="field"
          name=${name}
          data-credential
          required
          aria-describedby=${described}
          aria-invalid=${wrong}
          @change=${this.#handleInput}
          @keydown=${this.#handleKeydown}
          ><option value="">${this.#text('choose')}</option>${options.map(
            (option) => html`<option value=${option.value}>${option.label || option.value}</option>`,
          )}</select
        >`
      : html`<input
          part="field"
          name=${name}
          data-credential=${field.credential ? '' : nothing}
          type=${field.masked ? 'password' : 'text'}
          required
          autocomplete="off"
          spellcheck="false"
          pattern=${field.workspace ? WORKSPACE_REF_PATTERN : '.*'}
          aria-describedby=${described}
          aria-invalid=${wrong}
          .value=${field.value ?? ''}
          @input=${this.#handleInput}
          @keydown=${this.#handleKeydown}
        />`;
    return html`<div class="field">
      <label><span>${field.label}</span>${control}</label
      ><span id=${hint}
        >${field.prompt ? html`<small dir="auto">${field.prompt}</small>` : nothing}${
          isAllowedUrl(field.docsURL)
            ? html`<a part="link" href=${field.docsURL} target="_blank" rel="noopener noreferrer">${this.#text('docs')}</a>`
            : nothing
        }</span
      >
    </div>`;
  }

  /** A control beside the main button (fallback, stop, back, disconnect, keep), named by its part. */
  #renderControl(part: string, label: string, onClick: () => void, busy = false): TemplateResult {
    return html`<button
      part=${part}
      type="button"
      aria-disabled=${String(busy) as 'true' | 'false'}
      aria-describedby="status"
      @click=${onClick}
    >${label}</button>`;
  }

  /** The reconnect form's way back. */
  #renderBack(busy: boolean): TemplateResult | typeof nothing {
    if (busy || !this.reconnectForm || !this.#connectionToUpdate || this.#signIn.way !== 'form') return nothing;
    return this.#renderControl('back', this.#text('back'), this.#handleBack);
  }

  /** The provider's icon, dark under a dark colour scheme; while the provider is read, its place is kept. */
  #renderIcon(provider: string): TemplateResult | typeof nothing {
    const media = this.info?.name === provider ? this.info.media : undefined;
    const regular = media?.regular?.iconURL;
    const dark = media?.darkMode?.iconURL;
    if (isAllowedUrl(regular))
      return html`<picture
        >${
          isAllowedUrl(dark) ? html`<source srcset=${dark} media="(prefers-color-scheme: dark)" />` : nothing
        }<img part="icon" alt="" src=${regular} width="20" height="20"
      /></picture>`;
    if (this.info === undefined && this.provider && this.endpoint) return html`<span part="icon"></span>`;
    return nothing;
  }

  #renderButton(provider: string, busy: boolean): TemplateResult {
    const reconnect = busy ? this.flow!.mode === 'update' : !!(this.connectionId || this.existing);
    // While the connection is read, neutral: the provider's name, no guess at Connect or Reconnect (and no click until
    // the provider's info is read too).
    const neutral = this.reading && !busy;
    const label =
      (neutral && this.existing === undefined ? '' : this.#text(reconnect ? 'reconnect' : 'connect', provider)) ||
      this.#displayName(provider) ||
      'Connect';
    // A flow's button is never `disabled` (the focus would be lost); a neutral one is, when the host says so.
    const disabled = this.disabled && !busy;
    busy ||= neutral;
    return html`<button
      part="button"
      type="button"
      ?disabled=${disabled}
      aria-disabled=${busy || this.disabled}
      aria-busy=${busy}
      @click=${this.#handleClick}
    >${this.#renderIcon(provider)}<slot>${label}</slot></button
    >`;
  }

  /** The control a waiting flow offers: open a blocked popup, or stop waiting for a severed one. */
  #renderWaitControl(provider: string): TemplateResult | typeof nothing {
    const name = this.flow?.state.name;
    if (name === 'blocked')
      return this.#renderControl('fallback', this.#text('openPopup', provider), () => this.flow?.openBlocked());
    if (name === 'severed')
      return this.#renderControl('stop', this.#text('stopWaiting', provider), () => this.flow?.stopWaiting());
    return nothing;
  }

  #renderDisconnect(busy: boolean): TemplateResult | typeof nothing {
    if (!this.disconnectable || !this.existing || busy || this.#cannotDisconnect) return nothing;
    const confirming = this.disconnectStep === 'confirming';
    // While it is sent, the confirming button keeps the focus (aria-disabled, not disabled); the question is its
    // description, and Escape keeps the connection.
    const sending = this.disconnectStep === 'disconnecting';
    return html`<span @keydown=${this.#handleConfirmKey}
      >${this.#renderControl(
        'disconnect',
        this.#text(confirming || sending ? 'confirm' : 'disconnect'),
        this.#handleDisconnect,
        sending,
      )}${confirming ? this.#renderControl('keep', this.#text('keep'), this.#handleKeep) : nothing}</span
    >`;
  }

  protected override render() {
    const busy = this.#busy;
    // Texts tell of the flow: its provider while it runs.
    const provider = busy ? this.flow!.provider : this.provider;
    const [text, tone] = this.#status();
    return html`${busy ? nothing : this.#fields().map((field) => this.#renderField(field))}${this.#renderButton(
      provider,
      busy,
    )}${this.#renderWaitControl(provider)}${this.#renderBack(busy)}${this.#renderDisconnect(busy)}<span
        part="status"
        role="status"
        class=${tone}
        id="status"
        >${text}</span
      >`;
  }
}
