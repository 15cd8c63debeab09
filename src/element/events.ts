// The element's events: one declaration each, all CustomEvents that bubble
// and cross shadow roots, typed in HTMLElementEventMap.
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

export interface ConnectStartDetail {
  mode: 'create' | 'update';
}
export interface ConnectPopupDetail {
  url: string;
}
export interface ConnectConnectionDetail {
  connectionId: string;
}
export interface ConnectStatusDetail {
  status: ConnectionStatus;
  connection: Connection;
}
export interface ConnectSuccessDetail {
  connection: Connection;
}
export interface ConnectErrorDetail {
  code: ConnectErrorCode;
  message: string;
  problem?: Problem;
  connection?: Connection;
}
export interface ConnectCancelDetail {
  reason: ConnectCancelReason;
}
/** The caller's connection was read at rest (`null`: none). */
export interface ConnectLoadedDetail {
  connection: Connection | null;
}
export interface ConnectDisconnectDetail {
  connection: Connection;
}

export interface ConnectEventDetails {
  'connect-start': ConnectStartDetail;
  'connect-popup': ConnectPopupDetail;
  'connect-popup-blocked': ConnectPopupDetail;
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

declare global {
  interface HTMLElementEventMap {
    'connect-start': CustomEvent<ConnectStartDetail>;
    'connect-popup': CustomEvent<ConnectPopupDetail>;
    'connect-popup-blocked': CustomEvent<ConnectPopupDetail>;
    'connect-connection': CustomEvent<ConnectConnectionDetail>;
    'connect-status': CustomEvent<ConnectStatusDetail>;
    'connect-success': CustomEvent<ConnectSuccessDetail>;
    'connect-error': CustomEvent<ConnectErrorDetail>;
    'connect-cancel': CustomEvent<ConnectCancelDetail>;
    'connect-loaded': CustomEvent<ConnectLoadedDetail>;
    'connect-disconnect': CustomEvent<ConnectDisconnectDetail>;
  }
}
