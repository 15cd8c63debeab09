// connect-provider/server: the host backend's request handler.
export { createConnectHandler } from './handler.js';
export { withoutCredentials } from '../shared/credentials.js';
export { toBrowserConnection, BROWSER_CONNECTION_SHAPE } from './connection.js';
export { METADATA_LIMITS } from './input.js';
export type { ConnectHandler, ConnectUrlAnswer } from './handler.js';
export type { ConnectHandlerErrorInfo, ConnectHandlerOptions, ConnectUser } from './options.js';
export { toNodeListener, toRequest, writeResponse } from '../http/node.js';
export type { FetchHandler, NodeListener, NodeListenerOptions } from '../http/node.js';
export { HANDLER_PROBLEM_TYPES } from './upstream.js';
