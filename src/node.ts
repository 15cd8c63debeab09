// connect-provider/node: the handler's adapter to Node's http API (node:http, Express, Connect, Vite's
// middleware). connect-provider/server exports it too; this entry is the one whose name says it runs on Node.
export { toNodeListener } from './http/node.js';
export type { FetchHandler, NodeListener, NodeListenerOptions } from './http/node.js';
