// A real HTTP server on loopback for tests: records every request and answers
// with whatever the test's handler returns.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | object;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Drop the connection without answering. */
  destroy?: boolean;
}

export type ReplyFn = (request: RecordedRequest) => Reply | Promise<Reply>;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  reply: ReplyFn;
  close(): Promise<void>;
}

export async function startTestServer(reply: ReplyFn = () => ({ status: 200, body: {} })): Promise<TestServer> {
  const state: TestServer = {
    url: '',
    requests: [],
    reply,
    close: async () => {},
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    state.requests.push(recorded);
    const answer = await state.reply(recorded);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (answer.destroy) {
      req.socket.destroy();
      return;
    }
    const headers = { ...answer.headers };
    let body = answer.body;
    if (body !== undefined && typeof body !== 'string') {
      body = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    res.writeHead(answer.status ?? 200, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
