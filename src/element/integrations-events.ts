// The list's events and what they tell: one declaration each, all CustomEvents that bubble and cross shadow roots,
// typed in HTMLElementEventMap (as events.ts types the element's).
import type { BrowserProvider } from '../shared/provider.js';
import type { Connection, Problem } from '../shared/types.js';
import type { ConnectErrorCode } from './events.js';

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

/** The list's events, each by its detail. */
export interface IntegrationsEventDetails {
  'connect-integrations-loaded': ConnectIntegrationsLoadedDetail;
  'connect-integrations-change': ConnectIntegrationsChangeDetail;
  'connect-integrations-error': ConnectIntegrationsErrorDetail;
}

/** Each event as a listener receives it, derived from the map above. */
type IntegrationsEventMap = { [K in keyof IntegrationsEventDetails]: CustomEvent<IntegrationsEventDetails[K]> };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an augmentation of the DOM's map by ours
  interface HTMLElementEventMap extends IntegrationsEventMap {}
}
