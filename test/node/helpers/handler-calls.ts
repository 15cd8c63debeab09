// What the handler tests send and what their platform double answers, written once: a same-origin browser call
// through the Web-standard form of the handler, a problem from the platform, and oauth-connect's consent URL.
import type { ConnectHandler } from '../../../src/server/index.js';
import type { Reply } from './http-server.js';

/** The app's own origin in these tests. */
export const APP = 'http://app.test';

export interface CallInit {
  method?: string;
  /** A string is sent as is; anything else as JSON. Either way with `Content-Type: application/json` unless set. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A same-origin request of the browser signed in as `sid=ada` (each test's `authorize()` decides who that is). */
export function call(handler: ConnectHandler, path: string, init: CallInit = {}): Promise<Response> {
  const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', cookie: 'sid=ada', ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  return handler(
    new Request(`${APP}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body,
      ...(init.signal ? { signal: init.signal } : {}),
    }),
  );
}

/** The platform answering a problem (RFC 9457) of this status; `fields` add to or replace its members. */
export const problemReply = (
  status: number,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Reply => ({
  status,
  headers: { 'content-type': 'application/problem+json', ...headers },
  body: { status, title: 'Platform says no', ...fields },
});

/** oauth-connect's answer: the consent URL as plain text. */
export const urlReply = (url: string): Reply => ({ headers: { 'content-type': 'text/plain' }, body: url });
