import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { BrowserProvider } from '../shared/provider.js';
import type { Connection, Problem } from '../shared/types.js';
import { isAllowedUrl } from '../shared/url.js';
import { BackendError, baseOf } from './backend.js';
import type { ConnectProvider } from './connect-provider.js';
import type { ConnectErrorCode } from './events.js';
import type { ConnectStrings } from './strings.js';
import { DEFAULT_INTEGRATIONS_STRINGS, type IntegrationsStrings } from './integrations-strings.js';
import { notBackendMessage, notOfferedFix } from './developer-messages.js';
import {
  connectionsFailure,
  knownProvider,
  pickConnection,
  readConnections,
  requestAtRest,
  sharesConnections,
  warnsItself,
  type ConnectionList,
} from './page-reads.js';
import { langOf } from './locales.js';
import { displayNameOf, Localize } from './localize.js';
import { PARTS } from './parts.js';
import { connectIntegrationsStyles } from './connect-integrations.styles.js';

/** One entry of `GET {endpoint}/integrations` (docs/server.md): a provider and its allow-listed info. */
export type IntegrationEntry = BrowserProvider & { provider: string };

/**
 * What a row shows of its connection, as its `data-state` attribute says it (`loading` aside): `connected` (working,
 * or being verified), `attention` (bad_credentials: sign in again), `none`, `unknown` (the connections could not be
 * read) and `signed-out` (they were refused 401).
 */
export type IntegrationState = 'connected' | 'attention' | 'none' | 'unknown' | 'signed-out';

/** One row of the list as `connect-integrations-loaded` and `connect-integrations-change` tell it. */
export interface IntegrationDetail {
  provider: string;
  displayName: string;
  /** The caller's connection; `null` when there is none, or when it is not known (see `state`). */
  connection: Connection | null;
  /** The row's state, as its `data-state` attribute says it. */
  state: IntegrationState;
}

/** Why the list, or the caller's connections, could not be read. */
export interface ConnectIntegrationsErrorDetail {
  code: Extract<ConnectErrorCode, 'http_error' | 'network_error' | 'invalid_config'>;
  /** For the developer: the route and what it answered. */
  message: string;
  problem?: Problem;
}

export interface ConnectIntegrationsLoadedDetail {
  /** The rows (empty when the list could not be read). */
  integrations: IntegrationDetail[];
  /** Set when the list or the connections could not be read (`connect-integrations-error` said it too). */
  error?: ConnectIntegrationsErrorDetail;
}

export interface ConnectIntegrationsChangeDetail {
  /** Rows whose connection works (or is being verified). */
  connected: number;
  /** Rows whose connection needs the user to sign in again (`bad_credentials`). */
  attention: number;
  /** Every row. */
  total: number;
  integrations: IntegrationDetail[];
}

declare global {
  interface HTMLElementEventMap {
    'connect-integrations-loaded': CustomEvent<ConnectIntegrationsLoadedDetail>;
    'connect-integrations-change': CustomEvent<ConnectIntegrationsChangeDetail>;
    'connect-integrations-error': CustomEvent<ConnectIntegrationsErrorDetail>;
  }
}

/** Above this many rows, a search input filters them. */
const SEARCH_FROM = 9;

/** The rows' events after which a row's connection may have changed. */
const ROW_EVENTS = ['connect-loaded', 'connect-success', 'connect-error', 'connect-disconnect'] as const;

/** The provider of a row as the user reads it. */
const nameOf = (entry: IntegrationEntry): string => displayNameOf(entry.provider, entry);

/** Letters that no Unicode decomposition takes to plain Latin, folded as a person types them. */
const FOLDS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
  İ: 'i',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
};

/** Text as the search compares it: without accents or case ("Łódź" -> "lodz", "Straße" -> "strasse"). */
export const fold = (text: string): string =>
  text
    .replace(/[ßẞłŁıİøØđĐæÆœŒ]/g, (letter) => FOLDS[letter])
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('en');

/** The row's state from its element's `connection-status` (absent while unknown). */
function stateOfStatus(status: string | null): IntegrationState | undefined {
  if (status === 'none') return 'none';
  if (status === 'bad_credentials') return 'attention';
  return status ? 'connected' : undefined;
}

/** What the list knows of the caller's connections: being read, read, not readable, or refused 401. */
type ConnectionsRead = 'reading' | 'read' | 'unknown' | 'signed-out';

/** The list could not be read: why, as the person reads it. */
interface LoadFailure {
  text: keyof IntegrationsStrings;
}

/**
 * @summary A whole integrations settings page in one tag: one row per provider the user may connect, each a full
 * `<connect-provider>` with a badge of its state, read in one round trip (two requests at once) however many rows.
 *
 * @event connect-integrations-loaded - The list and the caller's connections were read, or the read failed (then
 * `error` is set). `{ integrations, error? }`
 * @event connect-integrations-change - A row's connection changed after the list loaded (a flow's outcome, a
 * disconnect, a read at rest). `{ connected, attention, total, integrations }`
 * @event connect-integrations-error - The list or the caller's connections could not be read. `{ code, message,
 * problem? }`
 *
 * @csspart row - One provider's row (`data-state`: `loading`, `connected`, `attention`, `none`, `unknown`,
 * `signed-out`).
 * @csspart badge - A row's state in words, beside its name.
 * @csspart summary - The summary line (the `summary` attribute).
 * @csspart filter - The summary's toggle that shows only the rows needing attention.
 * @csspart search - The search input (above 8 rows).
 * @csspart clear - The button that empties a search that matches nothing.
 * @csspart retry - The button that reads the list again after a failure.
 * @csspart button - Every row's connect button (and each of the row element's parts, under its own name).
 */
export class ConnectIntegrations extends LitElement {
  static override styles = connectIntegrationsStyles;

  /**
   * The reactive properties, declared here rather than by decorators, as `<connect-provider>` declares its own.
   */
  static override properties = {
    endpoint: {},
    providers: {},
    groupRef: { attribute: 'group-ref' },
    groupName: { attribute: 'group-name' },
    consumerRef: { attribute: 'consumer-ref' },
    consumerName: { attribute: 'consumer-name' },
    disconnectable: { type: Boolean, reflect: true },
    summary: { type: Boolean, reflect: true },
    formsOpen: { type: Boolean, reflect: true, attribute: 'forms-open' },
    descriptions: { attribute: false },
    requestHeaders: { attribute: false },
    strings: { attribute: false },
    entries: { state: true },
    failure: { state: true },
    connections: { state: true },
    query: { state: true },
    attentionOnly: { state: true },
  } as const;

  /** Base URL of the host backend's connect routes, e.g. `/api/connect`. */
  endpoint = '';
  /** Space-separated provider names: narrows and orders the list (and works without the integrations route). */
  providers = '';
  /** Hint forwarded to the backend by every row. */
  groupRef?: string;
  /** Hint forwarded to the backend by every row. */
  groupName?: string;
  /** Hint forwarded to the backend by every row. */
  consumerRef?: string;
  /** Hint forwarded to the backend by every row. */
  consumerName?: string;
  /** Every row offers to disconnect an existing connection. */
  disconnectable = false;
  /** Shows how many rows are connected and need attention, with a toggle showing only the latter. */
  summary = false;
  /** The inputs of a provider that signs in with a form are shown at once (else its Connect click opens them). */
  formsOpen = false;
  /** A line under a provider's name: provider name -> plain text (property only). */
  descriptions: Record<string, string> = {};
  /** Extra headers for backend calls, e.g. a CSRF token (property only). */
  requestHeaders?: Record<string, string>;
  /** Replacements for the list's texts and the rows' (property only). */
  strings: Partial<ConnectStrings & IntegrationsStrings> = {};

  /** The rows, once read: undefined while reading. */
  private entries?: IntegrationEntry[];
  /** The list could not be read (and has no rows from an earlier read). */
  private failure?: LoadFailure;
  /** What the list knows of the caller's connections. */
  private connections: ConnectionsRead = 'reading';
  private query = '';
  /** The filter is on: the rows shown, those needing attention when it was turned on and any since. */
  private attentionOnly?: Set<string>;
  #readId = 0;
  /**
   * Each provider's row element, kept by name: a list read again (an allow-list change, a framework's re-render)
   * moves the rows it keeps, with their state and any flow, and adds or drops only the others.
   */
  #rows = new Map<string, ConnectProvider>();
  /** Each row's state, as last rendered. */
  #states = new Map<string, IntegrationState | 'loading'>();
  /** Each row's connection as last known (kept while the row reads it again): what a change is measured against. */
  #known = new Map<string, string>();
  /** The picture the page was last told (loaded or change); undefined before the list loaded. */
  #told?: string;
  /** The developer messages said already: each once. */
  #warned = new Set<string>();
  /** A Try again whose button had the focus: the focus goes to the first row once the list reads. */
  #refocus = false;
  /** Each row's connection-status: the list follows it (made once in the page, never on a server). */
  #observer?: MutationObserver;
  /**
   * A row element that holds more than its line of buttons (a form, a flow's progress, an error: half a line taller)
   * spans its row below the provider's name; back to its buttons alone, it returns to the end of the name's line.
   */
  #sizes?: ResizeObserver;
  /** The list's texts: the host's strings, else the pack of the list's language (its rows find theirs the same way). */
  #localize = new Localize<keyof IntegrationsStrings>(this, DEFAULT_INTEGRATIONS_STRINGS);

  override connectedCallback(): void {
    super.connectedCallback();
    this.#observer ??= new MutationObserver(() => this.requestUpdate());
    this.#sizes ??= new ResizeObserver((entries) =>
      // In the next frame: a row changed now would be measured again in this one (a loop the browser reports).
      requestAnimationFrame(() => {
        for (const { target } of entries) {
          const button = target.shadowRoot?.querySelector('[part=button]');
          const grown = !!button && target.getBoundingClientRect().height > button.getBoundingClientRect().height * 1.5;
          target.parentElement?.classList.toggle('grown', grown);
        }
      }),
    );
    window.addEventListener('online', this.#readIfFailed);
    document.addEventListener('visibilitychange', this.#readIfFailed);
    for (const type of ROW_EVENTS) this.renderRoot.addEventListener(type, this.#rowEvent);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('online', this.#readIfFailed);
    document.removeEventListener('visibilitychange', this.#readIfFailed);
    for (const type of ROW_EVENTS) this.renderRoot.removeEventListener(type, this.#rowEvent);
  }

  /** A row's event says its connection may have changed: the list reads its rows again. */
  #rowEvent = (): void => this.requestUpdate();

  /** What failed may pass now (back online, the page shown again): the list reads again. */
  #readIfFailed = (): void => {
    if (document.hidden) return;
    if (this.failure || this.connections === 'unknown' || this.connections === 'signed-out') void this.#read();
  };

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') || changed.has('providers')) void this.#read();
    if (!this.entries) return;
    const rows = new Map<string, ConnectProvider>();
    for (const { provider } of this.entries) {
      let row = this.#rows.get(provider);
      if (!row) {
        row = document.createElement('connect-provider');
        // Each row's connection-status says its state: the list follows it.
        this.#observer?.observe(row, { attributes: true, attributeFilter: ['connection-status'] });
        this.#sizes?.observe(row);
      }
      // The row carries the list's settings; its provider as an attribute, so the page can find it.
      row.setAttribute('provider', provider);
      Object.assign(row, {
        endpoint: this.endpoint,
        groupRef: this.groupRef,
        groupName: this.groupName,
        consumerRef: this.consumerRef,
        consumerName: this.consumerName,
        disconnectable: this.disconnectable,
        requestHeaders: this.requestHeaders,
        strings: this.strings,
        // A row: short labels, its state told by the list's badge; a form opens on the Connect click.
        compact: true,
        formOnDemand: !this.formsOpen,
        // Signed out, no row may start a flow (no popup opens).
        disabled: this.connections === 'signed-out',
      });
      row.setAttribute('exportparts', PARTS);
      rows.set(provider, row);
    }
    this.#rows = rows;
    this.#states = new Map(this.entries.map(({ provider }) => [provider, this.#stateOf(rows.get(provider)!)]));
    // A row that needs attention joins the rows the filter shows.
    if (this.attentionOnly)
      for (const [provider, state] of this.#states) if (state === 'attention') this.attentionOnly.add(provider);
  }

  protected override updated(): void {
    this.#tellChange();
  }

  /** A row's state: its element's connection once read, else what the list knows of the connections. */
  #stateOf(row: ConnectProvider): IntegrationState | 'loading' {
    const state = stateOfStatus(row.getAttribute('connection-status'));
    if (state) return state;
    if (this.connections === 'signed-out' || this.connections === 'unknown') return this.connections;
    return 'loading';
  }

  /** The rows as the events tell them. */
  #details(): IntegrationDetail[] {
    return (this.entries ?? []).map((entry) => {
      const row = this.#rows.get(entry.provider);
      const state = this.#states.get(entry.provider);
      return {
        provider: entry.provider,
        displayName: nameOf(entry),
        connection: (state === 'connected' || state === 'attention' ? row?.connection : undefined) ?? null,
        state: state === 'loading' || !state ? 'unknown' : state,
      };
    });
  }

  /** The rows' connections as a change is measured: each row's last known connection (its id and status). */
  #picture(): string {
    for (const [provider, state] of this.#states) {
      if (state === 'loading' || state === 'unknown' || state === 'signed-out') continue;
      const connection = this.#rows.get(provider)?.connection;
      this.#known.set(provider, state === 'none' || !connection ? 'none' : `${connection.id} ${connection.status}`);
    }
    return (this.entries ?? []).map(({ provider }) => `${provider}=${this.#known.get(provider) ?? '?'}`).join('\n');
  }

  /** Tells the page of a change of a row's connection since it was last told (not of a read that found the same). */
  #tellChange(): void {
    if (this.#told === undefined || !this.entries) return;
    const picture = this.#picture();
    if (picture === this.#told) return;
    this.#told = picture;
    const integrations = this.#details();
    const count = (state: IntegrationState) => integrations.filter((i) => i.state === state).length;
    this.#emit('connect-integrations-change', {
      connected: count('connected'),
      attention: count('attention'),
      total: integrations.length,
      integrations,
    });
  }

  #emit<K extends 'connect-integrations-loaded' | 'connect-integrations-change' | 'connect-integrations-error'>(
    type: K,
    detail: HTMLElementEventMap[K]['detail'],
  ): void {
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail }));
  }

  /** Tells the developer what is theirs to fix, each message once. */
  #warn(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    console.warn(`<connect-integrations>: ${message}`);
  }

  /**
   * A failed read as the events tell it, and the developer's message when it is theirs to fix (a page that is not the
   * connect backend's, a 401, 403, 404 or 405, a misconfigured backend): the route and what it answered.
   */
  #describe(error: unknown, path: string): ConnectIntegrationsErrorDetail {
    const route = `GET ${baseOf(this.endpoint)}${path}`;
    if (!(error instanceof BackendError)) return { code: 'network_error', message: `${route} failed` };
    const status = error.problem?.status;
    const what = error.problem?.detail || error.problem?.title || error.message;
    let message = `${route} answered ${status}: ${what}`;
    if (error.code === 'network_error') message = `${route} could not be reached: ${error.message}`;
    else if (error.notBackend) message = notBackendMessage(error, this.endpoint);
    else if (status === 401) message = `${route} answered 401: is the user signed in?`;
    else if (status === 404 || status === 405)
      message = `${route} answered ${status}: ${what}; does the handler serve this route (a connect-provider server of this version)?`;
    else if (status === 403) message = `${route} answered 403: ${what}; does authorize() let this user in?`;
    const yours =
      error.notBackend || [401, 403, 404, 405].includes(status ?? 0) || (!error.retryable && status === 500);
    if (yours) this.#warn(message);
    return { code: error.code, message, ...(error.problem ? { problem: error.problem } : {}) };
  }

  /** The list could not be read: said in the list, to the page, and to the developer. */
  #failed(error: ConnectIntegrationsErrorDetail): void {
    this.#emit('connect-integrations-error', error);
    this.#emit('connect-integrations-loaded', { integrations: this.entries ? this.#details() : [], error });
  }

  /** Reads the integrations and the caller's connections at once (one round trip), and tells the page. */
  async #read(): Promise<void> {
    const id = ++this.#readId;
    const { endpoint } = this;
    if (!endpoint) {
      const message = 'the endpoint attribute is required';
      this.#warn(message);
      this.failure = { text: 'notSetUp' };
      this.#failed({ code: 'invalid_config', message });
      return;
    }
    // The list names this endpoint's routes itself when they are missing: the rows' shared reads need not.
    warnsItself(endpoint);
    const headers = { ...this.requestHeaders };
    const named = this.providers.split(/\s+/).filter(Boolean);
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
          this.failure = {
            text:
              status === 401
                ? 'signedOutList'
                : (error as BackendError).notBackend || [403, 404, 405].includes(status ?? 0)
                  ? 'notSetUp'
                  : 'loadFailed',
          };
        this.#failed(detail);
        return;
      }
    }
    this.failure = undefined;
    this.entries = entries;
    this.#answered(endpoint, await connections, id);
  }

  /** The caller's connections answered (a list; null: the backend cannot tell; undefined: the read failed). */
  #answered(endpoint: string, list: ConnectionList, id: number): void {
    if (id !== this.#readId) return;
    const failure = list ? undefined : connectionsFailure(endpoint);
    const previous = this.connections;
    this.connections = list ? 'read' : failure?.problem?.status === 401 ? 'signed-out' : 'unknown';
    const rows = [...this.#rows.values()];
    // Rows whose own read failed with the list's read it again now (the answer is shared: no request).
    if (list && previous !== 'read')
      for (const row of rows) if (!row.hasAttribute('connection-status')) row.requestUpdate('endpoint', '');
    const entries = this.entries!;
    // The picture the page is told: the list's own read, which every row's element shows too.
    this.#known = new Map(
      entries.map(({ provider }) => {
        const connection = list ? pickConnection(list, provider) : undefined;
        return [provider, list ? (connection ? `${connection.id} ${connection.status}` : 'none') : '?'];
      }),
    );
    this.#told = entries.map(({ provider }) => `${provider}=${this.#known.get(provider)}`).join('\n');
    const state = (connection: Connection | undefined): IntegrationState =>
      list
        ? (stateOfStatus(connection ? connection.status : 'none') ?? 'none')
        : (this.connections as 'unknown' | 'signed-out');
    const integrations = entries.map((entry) => {
      const connection = list ? pickConnection(list, entry.provider) : undefined;
      return {
        provider: entry.provider,
        displayName: nameOf(entry),
        connection: connection ?? null,
        state: state(connection),
      };
    });
    if (list === undefined || failure) {
      const error = this.#describe(failure ?? new BackendError('network_error', 'no answer', true), '/connections');
      this.#emit('connect-integrations-error', error);
      this.#emit('connect-integrations-loaded', { integrations, error });
    } else this.#emit('connect-integrations-loaded', { integrations });
    if (this.#refocus) void this.#focusFirstRow();
  }

  /** Once a Try again read the list, the focus goes from its button (now gone) to the first row's button. */
  async #focusFirstRow(): Promise<void> {
    await this.updateComplete;
    this.#refocus = false;
    // Failed again: the focus stays on Try again.
    if (this.renderRoot.querySelector('[part=retry]')) return;
    const first = [...this.renderRoot.querySelectorAll<HTMLLIElement>('[part~=row]')].find((li) => !li.hidden);
    const row = first?.querySelector('connect-provider');
    if (!row) return;
    await row.updateComplete;
    row.shadowRoot?.querySelector<HTMLElement>('[part=button]')?.focus();
  }

  #retry(event: Event): void {
    this.#refocus = (this.renderRoot as ShadowRoot).activeElement === event.currentTarget;
    void this.#read();
  }

  #text(key: keyof IntegrationsStrings, values: Record<string, string> = {}): string {
    return this.#localize.term(key, values);
  }

  /** A date as the list's language writes it. */
  #date(time: string): string {
    const date = new Date(time);
    if (Number.isNaN(date.getTime())) return '';
    const lang = langOf(this) || 'en';
    try {
      return new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(date);
    } catch {
      return new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(date);
    }
  }

  /** What a connected row is connected to: its workspace, and since when. */
  #detail(connection: Connection | undefined): string {
    if (!connection) return '';
    const date = connection.createTime ? this.#date(String(connection.createTime)) : '';
    const since = date ? this.#text('since', { date }) : '';
    return [connection.providerWorkspaceRef, since].filter(Boolean).join(' · ');
  }

  /** Whether a row is shown by the search (over its name and description) and the filter. */
  #shown(entry: IntegrationEntry, words: string[]): boolean {
    if (this.attentionOnly && !this.attentionOnly.has(entry.provider)) return false;
    if (!words.length) return true;
    const text = fold(`${nameOf(entry)} ${this.#description(entry) ?? ''}`);
    return words.every((word) => text.includes(word));
  }

  /** The host's own entry for the provider: never one through the object's prototype (`constructor`, `__proto__`). */
  #description(entry: IntegrationEntry): string | undefined {
    const descriptions = this.descriptions ?? {};
    return Object.hasOwn(descriptions, entry.provider) ? descriptions[entry.provider] : undefined;
  }

  #badge(state: IntegrationState | 'loading'): string {
    const key = (
      {
        connected: 'badgeConnected',
        attention: 'badgeAttention',
        none: 'badgeNone',
        unknown: 'badgeUnknown',
        'signed-out': 'badgeSignedOut',
        loading: undefined,
      } as const
    )[state];
    return key ? this.#text(key) : '';
  }

  /**
   * A row: its icon (dark under a dark colour scheme), name, badge, what it is connected to and description at the
   * start, its element at the end, the element's form below. The row is a group named by its name and badge, so a
   * screen reader entering the row's button hears its state. A row the search or filter hides stays on the page,
   * its flow and state going on.
   */
  #renderRow(entry: IntegrationEntry, index: number, shown: boolean): TemplateResult {
    const regular = entry.media?.regular?.iconURL;
    const dark = entry.media?.darkMode?.iconURL;
    const description = this.#description(entry);
    const row = this.#rows.get(entry.provider);
    const state = this.#states.get(entry.provider) ?? 'loading';
    const detail = state === 'connected' || state === 'attention' ? this.#detail(row?.connection) : '';
    return html`<li part="row" data-state=${state} ?hidden=${!shown}>
      <div class="row" role="group" aria-labelledby=${`name-${index} badge-${index}`}>
        <span class="name"
          >${
            isAllowedUrl(regular)
              ? html`<picture
                  >${
                    isAllowedUrl(dark) ? html`<source srcset=${dark} media="(prefers-color-scheme: dark)" />` : nothing
                  }<img alt="" src=${regular} width="20" height="20"
                /></picture>`
              : nothing
          }<strong id=${`name-${index}`}>${nameOf(entry)}</strong>
          <span part="badge" class="badge" id=${`badge-${index}`} ?hidden=${state === 'loading'}
            >${this.#badge(state)}</span
          >${detail ? html`<small class="detail">${detail}</small>` : nothing}${
            description ? html`<small>${description}</small>` : nothing
          }</span
        >${row}
      </div>
    </li>`;
  }

  /** The summary line and its filter toggle, once the connections are known. */
  #renderSummary(): TemplateResult | typeof nothing {
    if (!this.summary || !this.entries?.length || this.connections !== 'read') return nothing;
    const states = [...this.#states.values()];
    const count = (state: IntegrationState) => String(states.filter((s) => s === state).length);
    const on = !!this.attentionOnly;
    return html`<div part="summary" class="summary">
      <span>${this.#text('summary', { connected: count('connected'), attention: count('attention') })}</span>
      <button
        part="filter"
        type="button"
        aria-pressed=${String(on) as 'true' | 'false'}
        @click=${() =>
          (this.attentionOnly = on
            ? undefined
            : new Set([...this.#states].filter(([, s]) => s === 'attention').map(([provider]) => provider)))}
      >
        ${this.#text('filter')}
      </button>
    </div>`;
  }

  protected override render() {
    const { entries, failure } = this;
    const search = !!entries && entries.length >= SEARCH_FROM;
    // Without the search input (8 rows or fewer), no row is hidden by it.
    const typed = search ? this.query.trim() : '';
    const words = fold(typed).split(/\s+/).filter(Boolean);
    const shown = (entries ?? []).map((entry) => this.#shown(entry, words));
    const count = shown.filter(Boolean).length;
    // What the list says, in its one live region (present from the first render, its text changing).
    const notice = failure
      ? this.#text(failure.text)
      : entries && !entries.length
        ? this.#text('empty')
        : this.connections === 'signed-out'
          ? this.#text('signedOut')
          : this.connections === 'unknown' && entries
            ? this.#text('checkFailed')
            : this.attentionOnly && !count && !typed
              ? this.#text('noneNeedAttention')
              : '';
    const noMatch = !!typed && !count;
    const matches = noMatch
      ? this.#text('noMatch', { query: typed })
      : typed
        ? this.#text('matches', { count: String(count), total: String(entries!.length) })
        : '';
    const retry = !!failure || (!!entries && (this.connections === 'signed-out' || this.connections === 'unknown'));
    return html`${this.#renderSummary()}${
      search
        ? html`<input
            part="search"
            type="search"
            aria-label=${this.#text('search')}
            placeholder=${this.#text('search')}
            .value=${this.query}
            @input=${(event: Event) => (this.query = (event.target as HTMLInputElement).value)}
          />`
        : nothing
    }<p class="status" role="status"
        ><span class="notice">${notice}</span><span class=${search && !noMatch ? 'visually-hidden' : ''}
          >${matches}</span
        ></p
      >${
        noMatch
          ? html`<button part="clear" type="button" @click=${this.#clear}>${this.#text('clear')}</button>`
          : nothing
      }${
        retry
          ? html`<button part="retry" type="button" @click=${(event: Event) => this.#retry(event)}>
              ${this.#text('retry')}
            </button>`
          : nothing
      }${
        // While reading: placeholder rows of the final height, so nothing jumps when the rows come.
        !entries && !failure
          ? html`<ul class="loading" aria-busy="true">
              <li part="row" data-state="loading"></li>
              <li part="row" data-state="loading"></li>
              <li part="row" data-state="loading"></li>
            </ul>`
          : entries?.length
            ? html`<ul role="list">
                ${entries.map((entry, index) => this.#renderRow(entry, index, shown[index]))}
              </ul>`
            : nothing
      }`;
  }

  /** Empties the search, and puts the focus back in it. */
  #clear = (): void => {
    this.query = '';
    const input = this.renderRoot.querySelector<HTMLInputElement>('[part=search]');
    if (input) input.value = '';
    input?.focus();
  };
}
