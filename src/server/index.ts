// connect-provider/server: the host backend's request handler.
export { createConnectHandler } from './handler.js';
export { withoutCredentials } from '../api/credentials.js';
export type { ConnectHandler, ConnectHandlerOptions, ConnectUser, ConnectUrlAnswer } from './handler.js';
export { toNodeListener, toRequest, writeResponse } from '../http/node.js';
export type { FetchHandler, NodeListener, NodeListenerOptions } from '../http/node.js';
export { HANDLER_PROBLEM_TYPES } from './upstream.js';
