import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { ConnectProvider } from './connect-provider.js';
import type { ConnectStrings } from './strings.js';
import { DEFAULT_INTEGRATIONS_STRINGS, type IntegrationsStrings } from './integrations-strings.js';
import type {
  ConnectIntegrationsErrorDetail,
  IntegrationDetail,
  IntegrationEntry,
  IntegrationState,
  IntegrationsEventDetails,
} from './integrations-events.js';
import { IntegrationsRead, type ConnectionsRead } from './integrations-read.js';
import { matchesAll, SEARCH_FROM, wordsOf } from './integrations-search.js';
import {
  detailOf,
  nameOf,
  renderRow,
  renderSummary,
  stateOfStatus,
  watchRowHeights,
  type RowState,
} from './integrations-parts.js';
import { pickConnection, type ConnectionList } from './page-reads.js';
import { langOf } from './locales.js';
import { Localize } from './localize.js';
import { PARTS } from './parts.js';
import { connectIntegrationsStyles } from './connect-integrations.styles.js';

/** The rows' events after which a row's connection may have changed. */
const ROW_EVENTS = ['connect-loaded', 'connect-success', 'connect-error', 'connect-disconnect'] as const;

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

  private query = '';
  /** The filter is on: the rows shown, those needing attention when it was turned on and any since. */
  private attentionOnly?: Set<string>;
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
  /** A Try again whose button had the focus: the focus goes to the first row once the list reads. */
  #refocus = false;
  /** Each row's connection-status: the list follows it (made once in the page, never on a server). */
  #observer?: MutationObserver;
  /** Each row's height: a row element that holds more than its buttons spans its row (integrations-parts.ts). */
  #sizes?: ResizeObserver;
  /** The list's texts: the host's strings, else the pack of the list's language (its rows find theirs the same way). */
  #localize = new Localize<keyof IntegrationsStrings>(this, DEFAULT_INTEGRATIONS_STRINGS);
  /** The list's read: its rows, and what it knows of the caller's connections. */
  #read = new IntegrationsRead(this, {
    failed: (error) => this.#failed(error),
    answered: (list, previous, error) => this.#answered(list, previous, error),
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.#observer ??= new MutationObserver(() => this.requestUpdate());
    this.#sizes ??= watchRowHeights();
    for (const type of ROW_EVENTS) this.renderRoot.addEventListener(type, this.#rowEvent);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const type of ROW_EVENTS) this.renderRoot.removeEventListener(type, this.#rowEvent);
  }

  /** A row's event says its connection may have changed: the list reads its rows again. */
  #rowEvent = (): void => this.requestUpdate();

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') || changed.has('providers')) void this.#read.read();
    const { entries } = this.#read;
    if (!entries) return;
    const rows = new Map<string, ConnectProvider>();
    for (const { provider } of entries) {
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
        disabled: this.#read.connections === 'signed-out',
      });
      row.setAttribute('exportparts', PARTS);
      rows.set(provider, row);
    }
    this.#rows = rows;
    this.#states = new Map(entries.map(({ provider }) => [provider, this.#stateOf(rows.get(provider)!)]));
    // A row that needs attention joins the rows the filter shows.
    if (this.attentionOnly)
      for (const [provider, state] of this.#states) if (state === 'attention') this.attentionOnly.add(provider);
  }

  protected override updated(): void {
    this.#tellChange();
  }

  /** A row's state: its element's connection once read, else what the list knows of the connections. */
  #stateOf(row: ConnectProvider): RowState {
    const state = stateOfStatus(row.getAttribute('connection-status'));
    if (state) return state;
    const { connections } = this.#read;
    if (connections === 'signed-out' || connections === 'unknown') return connections;
    return 'loading';
  }

  /** The rows as the events tell them. */
  #details(): IntegrationDetail[] {
    return (this.#read.entries ?? []).map((entry) =>
      detailOf(entry, this.#states.get(entry.provider), this.#rows.get(entry.provider)?.connection),
    );
  }

  /** The rows' connections as a change is measured: each row's last known connection (its id and status). */
  #picture(): string {
    for (const [provider, state] of this.#states) {
      if (state === 'loading' || state === 'unknown' || state === 'signed-out') continue;
      const connection = this.#rows.get(provider)?.connection;
      this.#known.set(provider, state === 'none' || !connection ? 'none' : `${connection.id} ${connection.status}`);
    }
    return (this.#read.entries ?? [])
      .map(({ provider }) => `${provider}=${this.#known.get(provider) ?? '?'}`)
      .join('\n');
  }

  /** Tells the page of a change of a row's connection since it was last told (not of a read that found the same). */
  #tellChange(): void {
    if (this.#told === undefined || !this.#read.entries) return;
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

  #emit<K extends keyof IntegrationsEventDetails>(type: K, detail: IntegrationsEventDetails[K]): void {
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail }));
  }

  /** The list could not be read: said to the page (the list says it, the developer was told). */
  #failed(error: ConnectIntegrationsErrorDetail): void {
    this.#emit('connect-integrations-error', error);
    this.#emit('connect-integrations-loaded', { integrations: this.#read.entries ? this.#details() : [], error });
  }

  /** The caller's connections answered (a list; null: the backend cannot tell; undefined: the read failed). */
  #answered(list: ConnectionList, previous: ConnectionsRead, error?: ConnectIntegrationsErrorDetail): void {
    const rows = [...this.#rows.values()];
    // Rows whose own read failed with the list's read it again now (the answer is shared: no request).
    if (list && previous !== 'read')
      for (const row of rows) if (!row.hasAttribute('connection-status')) row.requestUpdate('endpoint', '');
    const entries = this.#read.entries!;
    // The picture the page is told: the list's own read, which every row's element shows too.
    this.#known = new Map(
      entries.map(({ provider }) => {
        const connection = list ? pickConnection(list, provider) : undefined;
        return [provider, list ? (connection ? `${connection.id} ${connection.status}` : 'none') : '?'];
      }),
    );
    this.#told = entries.map(({ provider }) => `${provider}=${this.#known.get(provider)}`).join('\n');
    const integrations = entries.map((entry) => {
      const connection = list ? pickConnection(list, entry.provider) : undefined;
      const state = list ? (stateOfStatus(connection?.status ?? 'none') ?? 'none') : this.#read.connections;
      return detailOf(entry, state as IntegrationState, connection);
    });
    if (error) this.#emit('connect-integrations-error', error);
    this.#emit('connect-integrations-loaded', error ? { integrations, error } : { integrations });
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
    void this.#read.read();
  }

  /** A text of the list, with its placeholders filled. */
  #term = (key: keyof IntegrationsStrings, values?: Record<string, string>): string => this.#localize.term(key, values);

  /** Whether a row is shown by the search (over its name and description) and the filter. */
  #shown(entry: IntegrationEntry, words: string[]): boolean {
    if (this.attentionOnly && !this.attentionOnly.has(entry.provider)) return false;
    return matchesAll(`${nameOf(entry)} ${this.#description(entry) ?? ''}`, words);
  }

  /** The host's own entry for the provider: never one through the object's prototype (`constructor`, `__proto__`). */
  #description(entry: IntegrationEntry): string | undefined {
    const descriptions = this.descriptions ?? {};
    return Object.hasOwn(descriptions, entry.provider) ? descriptions[entry.provider] : undefined;
  }

  #renderRow(entry: IntegrationEntry, index: number, shown: boolean): TemplateResult {
    const { provider } = entry;
    const state = this.#states.get(provider) ?? 'loading';
    const row = {
      entry,
      index,
      shown,
      state,
      element: this.#rows.get(provider),
      description: this.#description(entry),
    };
    return renderRow(row, this.#term, langOf(this) || 'en');
  }

  /** The summary line and its filter toggle, once the connections are known. */
  #renderSummary(): TemplateResult | typeof nothing {
    if (!this.summary || !this.#read.entries?.length || this.#read.connections !== 'read') return nothing;
    const on = !!this.attentionOnly;
    const needing = () => [...this.#states].filter(([, s]) => s === 'attention').map(([provider]) => provider);
    return renderSummary([...this.#states.values()], on, this.#term, () => {
      this.attentionOnly = on ? undefined : new Set(needing());
    });
  }

  protected override render() {
    const { entries, failure, connections } = this.#read;
    const search = !!entries && entries.length >= SEARCH_FROM;
    // Without the search input (8 rows or fewer), no row is hidden by it.
    const typed = search ? this.query.trim() : '';
    const words = wordsOf(typed);
    const shown = (entries ?? []).map((entry) => this.#shown(entry, words));
    const count = shown.filter(Boolean).length;
    // What the list says, in its one live region (present from the first render, its text changing).
    const notice = failure
      ? this.#term(failure)
      : entries && !entries.length
        ? this.#term('empty')
        : connections === 'signed-out'
          ? this.#term('signedOut')
          : connections === 'unknown' && entries
            ? this.#term('checkFailed')
            : this.attentionOnly && !count && !typed
              ? this.#term('noneNeedAttention')
              : '';
    const noMatch = !!typed && !count;
    const matches = noMatch
      ? this.#term('noMatch', { query: typed })
      : typed
        ? this.#term('matches', { count: String(count), total: String(entries!.length) })
        : '';
    const retry = !!failure || (!!entries && (connections === 'signed-out' || connections === 'unknown'));
    return html`${this.#renderSummary()}${
      search
        ? html`<input
            part="search"
            type="search"
            aria-label=${this.#term('search')}
            placeholder=${this.#term('search')}
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
          ? html`<button part="clear" type="button" @click=${this.#clear}>${this.#term('clear')}</button>`
          : nothing
      }${
        retry
          ? html`<button part="retry" type="button" @click=${(event: Event) => this.#retry(event)}>
              ${this.#term('retry')}
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
