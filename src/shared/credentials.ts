// Shared by the handler (server) and the element (browser): DOM-free, tiny.
import type { Connection } from './types.js';

/** A connection as a browser may see it: never with credentials. */
export function withoutCredentials(connection: Connection): Connection {
  const { oauth2AuthorizationCode: _creds, apiKey: _key, ...rest } = connection;
  return rest;
}
