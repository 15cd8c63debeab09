// Requests fetch cannot make, sent with node:http: a body streamed until the server answers, a Host header of
// one's choosing.
import { request as httpRequest } from 'node:http';

/** Sends a body chunk by chunk until the server answers; resolves with the status and how much was sent. */
export function streamUntilAnswered(
  url: string,
  method: string,
  headers: Record<string, string>,
  maxBytes: number,
): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    let answered = false;
    const req = httpRequest(url, { method, headers: { ...headers, 'transfer-encoding': 'chunked' } });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode!, sent });
      req.destroy();
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < maxBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** A raw request with a chosen Host header (fetch does not let one set it). */
export function withHost(
  url: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(url, { method: init.method ?? 'GET', headers: { ...init.headers, host } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end(init.body);
    },
  );
}
