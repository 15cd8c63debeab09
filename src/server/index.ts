// connect-provider/server: the host backend's request handler, and its adapter to Node's http API.
export { createConnectHandler } from './handler.js';
export { toBrowserConnection } from './connection.js';
export type { ConnectHandler } from './handler.js';
export type { ConnectUrlAnswer } from './operations.js';
export type {
  ConnectHandlerErrorInfo,
  ConnectHandlerOptions,
  ConnectHandlerReportedError,
  ConnectUser,
} from './options.js';
export { toNodeListener } from '../http/node.js';
export type { FetchHandler, NodeListener, NodeListenerOptions } from '../http/node.js';
