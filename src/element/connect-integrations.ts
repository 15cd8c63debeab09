import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { BrowserProvider } from '../shared/provider.js';
import type { Connection } from '../shared/types.js';
import { isAllowedUrl } from '../shared/url.js';
import type { ConnectProvider } from './connect-provider.js';
import type { ConnectStrings } from './strings.js';
import { DEFAULT_INTEGRATIONS_STRINGS, type IntegrationsStrings } from './integrations-strings.js';
import { isMissingRoute, knownProvider, pickConnection, readConnections, requestAtRest } from './page-reads.js';
import { displayNameOf, Localize } from './localize.js';
import { PARTS } from './parts.js';
import { connectIntegrationsStyles } from './connect-integrations.styles.js';

/** One entry of `GET {endpoint}/integrations` (docs/server.md): a provider and its allow-listed info. */
export type IntegrationEntry = BrowserProvider & { provider: string };

/** One row of the list as `connect-integrations-loaded` tells it. */
export interface IntegrationDetail {
  provider: string;
  displayName: string;
  connection: Connection | null;
}

export interface ConnectIntegrationsLoadedDetail {
  integrations: IntegrationDetail[];
}

declare global {
  interface HTMLElementEventMap {
    'connect-integrations-loaded': CustomEvent<ConnectIntegrationsLoadedDetail>;
  }
}

/** Above this many rows, a search input filters them. */
const SEARCH_FROM = 9;

/** The provider of a row as the user reads it. */
const nameOf = (entry: IntegrationEntry): string => displayNameOf(entry.provider, entry);

/**
 * @summary A whole integrations settings page in one tag: one row per provider the user may connect, each a full
 * `<connect-provider>`, read in two requests however many rows.
 *
 * @event connect-integrations-loaded - The list and the caller's connections were read. `{ integrations }`
 *
 * @csspart row - One provider's row.
 * @csspart search - The search input (above 8 rows).
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
    descriptions: { attribute: false },
    requestHeaders: { attribute: false },
    strings: { attribute: false },
    entries: { state: true },
    failed: { state: true },
    query: { state: true },
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
  /** A line under a provider's name: provider name -> plain text (property only). */
  descriptions: Record<string, string> = {};
  /** Extra headers for backend calls, e.g. a CSRF token (property only). */
  requestHeaders?: Record<string, string>;
  /** Replacements for the list's texts and the rows' (property only). */
  strings: Partial<ConnectStrings & IntegrationsStrings> = {};

  /** The rows, once read: undefined while reading. */
  private entries?: IntegrationEntry[];
  /** The read failed for good. */
  private failed = false;
  private query = '';
  #readId = 0;
  /**
   * Each provider's row element, kept by name: a list read again (an allow-list change, a framework's re-render)
   * moves the rows it keeps, with their state and any flow, and adds or drops only the others.
   */
  #rows = new Map<string, ConnectProvider>();
  /** The list's texts: the host's strings, else the pack of the list's language (its rows find theirs the same way). */
  #localize = new Localize<keyof IntegrationsStrings>(this, DEFAULT_INTEGRATIONS_STRINGS);

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint') || changed.has('providers')) this.#read();
    if (!this.entries) return;
    const rows = new Map<string, ConnectProvider>();
    for (const { provider } of this.entries) {
      const row = this.#rows.get(provider) ?? document.createElement('connect-provider');
      // The row carries the list's settings.
      Object.assign(row, {
        endpoint: this.endpoint,
        provider,
        groupRef: this.groupRef,
        groupName: this.groupName,
        consumerRef: this.consumerRef,
        consumerName: this.consumerName,
        disconnectable: this.disconnectable,
        requestHeaders: this.requestHeaders,
        strings: this.strings,
      });
      row.setAttribute('exportparts', PARTS);
      rows.set(provider, row);
    }
    this.#rows = rows;
  }

  /** Reads the integrations, then the caller's connections (the request the rows share), and tells the page. */
  async #read(): Promise<void> {
    const id = ++this.#readId;
    // Read again, the list keeps showing its rows (their state, any flow) until the new answer.
    this.failed = false;
    const { endpoint } = this;
    if (!endpoint) return;
    const headers = { ...this.requestHeaders };
    const named = this.providers.split(/\s+/).filter(Boolean);
    let entries: IntegrationEntry[];
    let fromRoute = true;
    try {
      // A failure that may pass is retried as every read is (the flows' own retry loop).
      const data = await requestAtRest(endpoint, headers, 'GET', '/integrations');
      entries = (Array.isArray(data) ? data : []).filter(
        (e): e is IntegrationEntry => !!e && typeof e === 'object' && typeof e.provider === 'string' && !!e.provider,
      );
      // The attribute narrows and orders; a name the route does not list gets no row.
      if (named.length) entries = named.flatMap((name) => entries.filter((e) => e.provider === name).slice(0, 1));
    } catch (error) {
      // A backend without the route (404 or 405): the named providers are the rows, each read through the providers
      // route.
      if (id !== this.#readId) return;
      if (!isMissingRoute(error) || !named.length) {
        // Read again, a failure leaves the rows shown (their state, any flow) as they were.
        if (!this.entries) this.failed = true;
        return;
      }
      entries = named.map((provider) => ({ provider, name: provider }));
      fromRoute = false;
    }
    if (id !== this.#readId) return;
    // The rows need not ask for what the list already read.
    if (fromRoute) for (const entry of entries) if (entry.name === entry.provider) knownProvider(endpoint, entry);
    this.entries = entries;
    const list = await readConnections(endpoint, headers);
    // Connections the backend could not tell are unknown, not "none": nothing to tell the page.
    if (id !== this.#readId || !list) return;
    this.dispatchEvent(
      new CustomEvent('connect-integrations-loaded', {
        bubbles: true,
        composed: true,
        detail: {
          integrations: entries.map((entry) => ({
            provider: entry.provider,
            displayName: nameOf(entry),
            connection: pickConnection(list, entry.provider) ?? null,
          })),
        },
      }),
    );
  }

  #text(key: keyof IntegrationsStrings, count = 0, total = 0): string {
    return this.#localize.term(key, { count: String(count), total: String(total) });
  }

  /** A row; one the search does not match is hidden, never removed, so its flow and state go on. */
  #renderRow(entry: IntegrationEntry, query: string): TemplateResult {
    const icon = entry.media?.regular?.iconURL;
    // The host's own entry for the provider: never one through the object's prototype (`constructor`, `__proto__`).
    const descriptions = this.descriptions ?? {};
    const description = Object.hasOwn(descriptions, entry.provider) ? descriptions[entry.provider] : undefined;
    return html`<li part="row" ?hidden=${!nameOf(entry).toLowerCase().includes(query)}>
      <span class="name"
        >${isAllowedUrl(icon) ? html`<img alt="" src=${icon} />` : nothing}<strong>${nameOf(entry)}</strong
        >${description ? html`<small>${description}</small>` : nothing}</span
      >${this.#rows.get(entry.provider)}
    </li>`;
  }

  protected override render() {
    const { entries } = this;
    if (this.failed)
      return html`<p role="status">${this.#text('loadFailed')}</p>
        <button part="retry" type="button" @click=${() => this.#read()}>${this.#text('retry')}</button>`;
    // While reading: placeholder rows of the final height, so nothing jumps when the rows come.
    if (!entries)
      return html`<ul class="loading" aria-busy="true">
        <li part="row"></li>
        <li part="row"></li>
        <li part="row"></li>
      </ul>`;
    if (!entries.length) return html`<p role="status">${this.#text('empty')}</p>`;
    const search = entries.length >= SEARCH_FROM;
    // Without the search input (8 rows or fewer), no row is hidden.
    const query = search ? this.query.trim().toLowerCase() : '';
    const shown = entries.filter((e) => nameOf(e).toLowerCase().includes(query)).length;
    return html`${
      search
        ? html`<input
              part="search"
              type="search"
              aria-label=${this.#text('search')}
              placeholder=${this.#text('search')}
              .value=${this.query}
              @input=${(event: Event) => (this.query = (event.target as HTMLInputElement).value)}
            /><span class="visually-hidden" role="status">${
              query ? this.#text('matches', shown, entries.length) : ''
            }</span>`
        : nothing
    }
      <ul role="list">
        ${entries.map((entry) => this.#renderRow(entry, query))}
      </ul>`;
  }
}
