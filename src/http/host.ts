// What a Host or X-Forwarded-Host header may hold: a plain host[:port], never
// a path, user info, query or anything a URL parser would read as more.

const PLAIN_HOST =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*\.?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/** Whether the value is a plain `host[:port]` (a name, an IPv4 address or a bracketed IPv6 address). */
export function isPlainHost(value: string): boolean {
  return value.length <= 255 && PLAIN_HOST.test(value);
}

/** Whether an X-Forwarded-Host value is one plain host[:port], or a comma-separated list of them (proxy chains). */
export function isPlainHostList(value: string): boolean {
  return value.split(',').every((part) => isPlainHost(part.trim()));
}
