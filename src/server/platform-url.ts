// Which URLs from the platform the handler passes on to the browser.
import { parseAllowedUrl } from '../shared/url.js';

/** Whether a URL from the platform may be sent to the browser: the shared rule, and http only from a loopback platform. */
export function isUsableUrl(url: string, platformIsLoopback: boolean): URL | null {
  const parsed = parseAllowedUrl(url);
  return parsed && (parsed.protocol === 'https:' || platformIsLoopback) ? parsed : null;
}
