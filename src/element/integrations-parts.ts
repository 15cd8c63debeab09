// Internal: the list's parts, as the person reads them: a row (the provider's icon and name, a badge of its state,
// what it is connected to and since when, the host's description, the row's <connect-provider> at the end), the
// summary line with its filter, and a row as the events tell it.
import { html, nothing, type TemplateResult } from 'lit';
import { isAllowedUrl } from '../shared/url.js';
import type { Connection } from '../shared/types.js';
import type { IntegrationDetail, IntegrationEntry, IntegrationState } from './integrations-events.js';
import type { IntegrationsStrings } from './integrations-strings.js';
import { displayNameOf } from './localize.js';

/** A row's state, or `loading` while neither its element nor the list knows its connection. */
export type RowState = IntegrationState | 'loading';

/** The provider of a row as the user reads it. */
export const nameOf = (entry: IntegrationEntry): string => displayNameOf(entry.provider, entry);

/** The row's state from its element's `connection-status` (absent while unknown). */
export function stateOfStatus(status: string | null): IntegrationState | undefined {
  if (status === 'none') return 'none';
  if (status === 'bad_credentials') return 'attention';
  return status ? 'connected' : undefined;
}

/** A row as the events tell it: its connection when it has one, its state `unknown` while the list knows none. */
export const detailOf = (
  entry: IntegrationEntry,
  state: RowState | undefined,
  connection?: Connection,
): IntegrationDetail => ({
  provider: entry.provider,
  displayName: nameOf(entry),
  connection: (state === 'connected' || state === 'attention' ? connection : undefined) ?? null,
  state: state === 'loading' || !state ? 'unknown' : state,
});

/**
 * Watches the rows' elements: one that holds more than its line of buttons (a form, a flow's progress, an error: half
 * a line taller) spans its row below the provider's name (the class `grown`); back to its buttons alone, it returns
 * to the end of the name's line.
 */
export const watchRowHeights = (): ResizeObserver =>
  new ResizeObserver((entries) =>
    // In the next frame: a row changed now would be measured again in this one (a loop the browser reports).
    requestAnimationFrame(() => {
      for (const { target } of entries) {
        const button = target.shadowRoot?.querySelector('[part=button]');
        const grown = !!button && target.getBoundingClientRect().height > button.getBoundingClientRect().height * 1.5;
        target.parentElement?.classList.toggle('grown', grown);
      }
    }),
  );

/** Each state's badge text (none while loading). */
const BADGES = {
  connected: 'badgeConnected',
  attention: 'badgeAttention',
  none: 'badgeNone',
  unknown: 'badgeUnknown',
  'signed-out': 'badgeSignedOut',
  loading: undefined,
} as const satisfies Record<RowState, keyof IntegrationsStrings | undefined>;

/** The list's texts, as its language controller gives them. */
type Term = (key: keyof IntegrationsStrings, values?: Record<string, string>) => string;

/** A date as the list's language writes it ('' for a time that is no date). */
function dateIn(lang: string, time: string): string {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return '';
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(date);
  } catch {
    return new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(date);
  }
}

/** What a connected row is connected to: its workspace, and since when. */
function connectedTo(connection: Connection | undefined, term: Term, lang: string): string {
  if (!connection) return '';
  const date = connection.createTime ? dateIn(lang, String(connection.createTime)) : '';
  const since = date ? term('since', { date }) : '';
  return [connection.providerWorkspaceRef, since].filter(Boolean).join(' · ');
}

export interface Row {
  entry: IntegrationEntry;
  /** The row's place in the list: its name's and badge's ids. */
  index: number;
  shown: boolean;
  state: RowState;
  /** The row's element. */
  element?: HTMLElement & { connection?: Connection };
  /** The host's description of the provider. */
  description?: string;
}

/**
 * A row: its icon (dark under a dark colour scheme), name, badge, what it is connected to and description at the
 * start, its element at the end, the element's form below. The row is a group named by its name and badge, so a
 * screen reader entering the row's button hears its state. A row the search or filter hides stays on the page, its
 * flow and state going on.
 */
export function renderRow(
  { entry, index, shown, state, element, description }: Row,
  term: Term,
  lang: string,
): TemplateResult {
  const regular = entry.media?.regular?.iconURL;
  const dark = entry.media?.darkMode?.iconURL;
  const detail = state === 'connected' || state === 'attention' ? connectedTo(element?.connection, term, lang) : '';
  const badge = BADGES[state];
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
          >${badge ? term(badge) : ''}</span
        >${detail ? html`<small class="detail">${detail}</small>` : nothing}${
          description ? html`<small>${description}</small>` : nothing
        }</span
      >${element}
    </div>
  </li>`;
}

/**
 * The summary line (how many rows are connected and need attention) and its filter toggle, pressed while only the
 * rows needing attention are shown.
 */
export function renderSummary(states: RowState[], on: boolean, term: Term, toggle: () => void): TemplateResult {
  const count = (state: IntegrationState) => String(states.filter((s) => s === state).length);
  return html`<div part="summary" class="summary">
    <span>${term('summary', { connected: count('connected'), attention: count('attention') })}</span>
    <button part="filter" type="button" aria-pressed=${String(on) as 'true' | 'false'} @click=${toggle}>
      ${term('filter')}
    </button>
  </div>`;
}
