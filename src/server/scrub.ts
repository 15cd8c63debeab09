// Removes from text that may come from the platform what the browser must not
// see: the API key (any case, and its likely encodings), the platform's host
// and port in any form, URLs, and stack traces.

/** What a scrubber hides; built once per handler. */
export interface Scrubber {
  (text: string): string;
  /** Whether the text holds nothing the scrubber would hide. */
  isClean(text: string): boolean;
}

const REDACTED = '[redacted]';
const MAX_TEXT = 500;
/**
 * Bounds of the work on one text: the key is looked for in its first `scanText` characters (plus the longest form
 * of the key, so a key that starts before the cut is hidden whole), and everything after `scanText` is dropped; the
 * other rules then see at most `keepText` characters. Every pattern is linear, so a text of any size costs the same.
 */
export const SCRUB_LIMITS = { scanText: 8192, keepText: 4096 } as const;

/** `text` as a pattern that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The characters of a secret's base64 (standard and URL-safe) that depend on its bytes only, at each alignment. */
export function base64Forms(secret: string): string[] {
  // The key inside a longer encoded text: at each of the 3 byte alignments,
  // the characters that depend on the key's bytes only.
  const bytes = new TextEncoder().encode(secret);
  const forms = [base64(bytes).replace(/=+$/, '')];
  for (let pad = 0; pad < 3; pad++) {
    const padded = new Uint8Array(pad + bytes.length);
    padded.set(bytes, pad);
    const first = Math.ceil((8 * pad) / 6);
    const last = Math.floor((8 * (pad + bytes.length)) / 6);
    forms.push(base64(padded).slice(first, last));
  }
  return forms.filter((f) => f.length >= 6).flatMap((f) => [f, f.replace(/\+/g, '-').replace(/\//g, '_')]);
}

/** A secret's UTF-8 bytes in hex. */
export function hexOf(secret: string): string {
  return [...new TextEncoder().encode(secret)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** IPv6 text forms of an address: compressed (as URL gives it) and fully expanded. */
function ipv6Forms(bracketed: string): string[] {
  const compressed = bracketed.slice(1, -1); // URL gives the hostname lower-cased
  const [head, tail = ''] = compressed.includes('::')
    ? compressed.split('::')
    : [compressed, undefined as unknown as string];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = new Array(Math.max(0, 8 - left.length - right.length)).fill('0');
  const groups = compressed.includes('::') ? [...left, ...middle, ...right] : left;
  const expanded = groups.map((g) => g.padStart(4, '0')).join(':');
  // URL's groups have no leading zeros: joined, they give the uncompressed form without them (2001:db8:0:0:...).
  const short = groups.join(':');
  return [...new Set([compressed, expanded, short])];
}

/**
 * Builds the scrubber of a handler: `apiKey` is hidden in any case, URL-
 * encoded, base64 (standard and URL-safe, at any alignment) and hex, and any
 * run of 12 of its characters; `baseUrl`'s host is hidden in any case, with or
 * without its port, scheme or brackets, percent-encoded or not.
 */
export function createScrubber(apiKey: string, baseUrl: string): Scrubber {
  // Case-insensitive forms, and base64 ones (case matters there). None is empty: the key is not, and every
  // base64 form has 6 characters or more.
  const loose: string[] = [apiKey, encodeURIComponent(apiKey), hexOf(apiKey)];
  const exact = base64Forms(apiKey);
  const window = Math.min(12, apiKey.length);
  for (let i = 0; i + window <= apiKey.length; i++) loose.push(apiKey.slice(i, i + window));

  const url = new URL(baseUrl);
  const hosts = url.hostname.startsWith('[') ? ipv6Forms(url.hostname) : [url.hostname];
  if (url.hostname.startsWith('[')) hosts.push(...hosts.map((h) => `[${h}]`));
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const host of hosts) loose.push(host, encodeURIComponent(host));
  // Longest first: at each position the longest form is the one marked.
  const patterns = [...new Set(loose)].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const looseRe = new RegExp(patterns.join('|'), 'gi');
  const exactRe = exact.length ? new RegExp([...new Set(exact)].map(escapeRegExp).join('|'), 'g') : null;
  // The port: after a colon (`:4010`, `%3A4010`); an explicit port also as a bare number ("port 4010").
  const portRe = url.port
    ? new RegExp(`(?:(?::|%3a)|(?<![\\d.]))${port}(?!\\d)`, 'gi')
    : new RegExp(`(?::|%3a)${port}(?!\\d)`, 'gi');
  // The longest text a form of the key can take: what the scan reads past its cut.
  const margin = Math.max(...loose.map((f) => f.length), ...exact.map((f) => f.length));
  // Any absolute URL, whatever its scheme: it starts where a run of scheme characters starts (not inside one, so each
  // run is read once: linear).
  const urlRe = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi;
  // A stack frame (`at fn (/path/file.js:1:2)`, `at new X (<anonymous>)`, `at node:internal/x:3:4`) or a bare file
  // position, on its own line or not. A path starts a token (after whitespace, a parenthesis or the start), never
  // inside one, so each token is read once: linear.
  const stackRe =
    /(?:\bat\s+(?:async\s+)?(?:new\s+)?(?:[\w$.<>[\]]+(?:\s\[as [\w$]+\])?\s+)?)?\(?(?<![^\s()])(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s()]*:\d+(?::\d+)?(?:\)|(?=\s|$))|\bat\s+(?:async\s+)?(?:new\s+)?[\w$.<>]+\s+\((?:native|index \d+|<anonymous>)\)/g;

  /** The key hidden, in the text's first SCRUB_LIMITS.scanText characters (the rest dropped). */
  function withoutKey(text: string): string {
    // Bounded before any pattern reads it; the margin holds the whole of a key that starts before the cut.
    // eslint-disable-next-line no-control-regex -- control characters (but tab and newline) are what this removes
    const out = text.slice(0, SCRUB_LIMITS.scanText + margin).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
    // Mark every position a secret covers, then replace each marked run once.
    const marks = new Uint8Array(out.length);
    for (const re of [looseRe, exactRe]) {
      if (!re) continue;
      re.lastIndex = 0;
      for (let m = re.exec(out); m; m = re.exec(out)) {
        marks.fill(1, m.index, m.index + m[0].length);
        re.lastIndex = m.index + 1;
      }
    }
    let result = '';
    const end = Math.min(out.length, SCRUB_LIMITS.scanText);
    for (let i = 0; i < end; i++) {
      if (marks[i]) {
        result += REDACTED;
        while (i + 1 < out.length && marks[i + 1]) i++;
      } else {
        result += out[i];
      }
    }
    return result;
  }

  function hide(text: string): string {
    // The key first, on a bounded slice; then the rest on at most keepText characters.
    let result = withoutKey(text).slice(0, SCRUB_LIMITS.keepText);
    // Frames before URLs, so a frame's file:// URL goes with its frame; a position must end its token, so a URL's
    // :port is no line number.
    result = result.replace(stackRe, ' ').replace(urlRe, '[url]');
    result = result.replace(portRe, ` ${REDACTED}`);
    result = result.replace(/\s{2,}/g, ' ').trim();
    return result.length > MAX_TEXT ? `${result.slice(0, MAX_TEXT - 1)}…` : result;
  }

  const scrubber = hide as Scrubber;
  scrubber.isClean = (text) => hide(text) === text;
  return scrubber;
}
