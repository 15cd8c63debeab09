// The element's events: one declaration each (ConnectEventDetails), all CustomEvents that bubble and cross shadow
// roots, typed in HTMLElementEventMap through ConnectEventMap, derived from it.
import type { Connection, ConnectionStatus, Problem } from '../shared/types.js';

/** Codes of `connect-error`. */
export type ConnectErrorCode =
  | 'bad_credentials'
  | 'authorization_failed'
  | 'timeout'
  | 'http_error'
  | 'network_error'
  | 'invalid_url'
  | 'invalid_config';

export type ConnectCancelReason = 'popup_closed' | 'cancelled';

/** What every event's detail holds: the element's provider, so a listener outside its shadow root knows who spoke. */
export interface ConnectDetailBase {
  provider: string;
}

export interface ConnectStartDetail extends ConnectDetailBase {
  mode: 'create' | 'update';
  /** How the provider signs in: a consent page in a popup, or credentials typed into the element's form. */
  scheme: 'popup' | 'form';
}
export interface ConnectPopupDetail extends ConnectDetailBase {
  url: string;
}
/**
 * Why no window can open, so the element shows the link (the link way): `blocked`, the fallback's own click opened
 * none; `sandboxed`, the element's frame is sandboxed without allow-popups (read before trying); `webview`, an
 * Android WebView (its user agent's documented `; wv)` marker), where providers such as Google refuse OAuth.
 */
export type LinkReason = 'blocked' | 'sandboxed' | 'webview';
export interface ConnectLinkDetail extends ConnectDetailBase {
  /** The consent link, as secret as the popup's URL. */
  url: string;
  reason: LinkReason;
}
export interface ConnectConnectionDetail extends ConnectDetailBase {
  connectionId: string;
}
export interface ConnectStatusDetail extends ConnectDetailBase {
  status: ConnectionStatus;
  connection: Connection;
}
export interface ConnectSuccessDetail extends ConnectDetailBase {
  connection: Connection;
}
export interface ConnectErrorDetail extends ConnectDetailBase {
  code: ConnectErrorCode;
  message: string;
  problem?: Problem;
  connection?: Connection;
}
export interface ConnectCancelDetail extends ConnectDetailBase {
  reason: ConnectCancelReason;
}
/** The caller's connection was read at rest (`null`: none). */
export interface ConnectLoadedDetail extends ConnectDetailBase {
  connection: Connection | null;
}
export interface ConnectDisconnectDetail extends ConnectDetailBase {
  connection: Connection;
}

export interface ConnectEventDetails {
  'connect-start': ConnectStartDetail;
  'connect-popup': ConnectPopupDetail;
  'connect-popup-blocked': ConnectPopupDetail;
  'connect-link': ConnectLinkDetail;
  'connect-connection': ConnectConnectionDetail;
  'connect-status': ConnectStatusDetail;
  'connect-success': ConnectSuccessDetail;
  'connect-error': ConnectErrorDetail;
  'connect-cancel': ConnectCancelDetail;
  'connect-loaded': ConnectLoadedDetail;
  'connect-disconnect': ConnectDisconnectDetail;
}

/** What `start()` rejects with: the terminal error or cancellation, as an Error. */
export class ConnectError extends Error {
  override name = 'ConnectError';
  readonly code: ConnectErrorCode | ConnectCancelReason;
  readonly problem?: Problem;
  readonly connection?: Connection;
  constructor(
    code: ConnectErrorCode | ConnectCancelReason,
    message: string,
    problem?: Problem,
    connection?: Connection,
  ) {
    super(message);
    this.code = code;
    if (problem) this.problem = problem;
    if (connection) this.connection = connection;
  }
}

/** An event's detail as the element's parts give it: the element adds `provider`. */
export type DetailWithoutProvider<K extends keyof ConnectEventDetails> = Omit<ConnectEventDetails[K], 'provider'>;

/** Each event as a listener receives it: the one map above, so an event is declared once. */
type ConnectEventMap = { [K in keyof ConnectEventDetails]: CustomEvent<ConnectEventDetails[K]> };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an augmentation of the DOM's map by ours
  interface HTMLElementEventMap extends ConnectEventMap {}
}
