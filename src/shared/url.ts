// The one rule for which URLs the browser may be sent to or load from, shared by
// the element (popup URLs, icons) and the server (what it forwards).

/** localhost and its subdomains, 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}

/** The URL of a text (resolved against `base` when given); undefined when it does not parse. */
export function parseUrl(text: string, base?: string): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

/** The parsed URL when it is https, or http on a loopback host, with no user info; null for anything else. */
export function parseAllowedUrl(url: unknown): URL | null {
  if (typeof url !== 'string') return null;
  const parsed = parseUrl(url);
  if (!parsed) return null;
  if (parsed.username || parsed.password) return null;
  if (parsed.protocol === 'https:') return parsed;
  return parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname) ? parsed : null;
}

/** https, or http on a loopback host. */
export function isAllowedUrl(url: unknown): url is string {
  return parseAllowedUrl(url) !== null;
}
