// What onError is handed of what was thrown: a plain value of a few named
// fields (ConnectHandlerReportedError), never the thrown value itself, with the
// API key and any other secret (a user's credential) replaced by [redacted] in
// every string of it, in any case and URL-encoded.
import type { ConnectHandlerReportedError } from './options.js';
import { escapeRegExp } from './scrub.js';

const REDACTED = '[redacted]';
/** How many causes below the error itself are told. */
export const MAX_CAUSES = 4;

/** Replaces each secret in a text, in any case, as it is and URL-encoded, by `[redacted]`. */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const forms = [...new Set(secrets.filter((s) => s !== '').flatMap((s) => [s, encodeURIComponent(s)]))];
  if (forms.length === 0) return (text) => text;
  // The longest first: a secret that begins its own encoding (one ending in %) is replaced whole.
  forms.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'gi');
  return (text) => text.replace(pattern, REDACTED);
}

/** A field of what was thrown; a getter that throws (or a proxy's trap) reads as nothing. */
function field(value: object, name: string): unknown {
  try {
    return (value as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

const TEXT_FIELDS = ['title', 'detail', 'requestId', 'code', 'stack'] as const;

/** What was thrown as onError gets it: the fields of ConnectHandlerReportedError it holds with their type, and its causes. */
export function reportedError(
  thrown: unknown,
  redact: (text: string) => string,
  causes = MAX_CAUSES,
): ConnectHandlerReportedError {
  // A function is told by its type only: its text is its source.
  if (typeof thrown === 'function') return { name: 'function', message: '' };
  if (typeof thrown !== 'object' || thrown === null) {
    return { name: thrown === null ? 'null' : typeof thrown, message: redact(String(thrown)) };
  }
  const name = field(thrown, 'name');
  const message = field(thrown, 'message');
  const out: ConnectHandlerReportedError = {
    name: typeof name === 'string' ? redact(name) : 'object',
    message: typeof message === 'string' ? redact(message) : '',
  };
  const status = field(thrown, 'status');
  if (typeof status === 'number') out.status = status;
  for (const key of TEXT_FIELDS) {
    const value = field(thrown, key);
    if (typeof value === 'string') out[key] = redact(value);
  }
  const cause = field(thrown, 'cause');
  if (cause !== undefined && causes > 0) out.cause = reportedError(cause, redact, causes - 1);
  return out;
}
