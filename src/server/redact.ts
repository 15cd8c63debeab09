// What onError may be handed: a copy of a thrown value with the API key
// replaced by [redacted] in every string it holds (its message, stack, cause,
// a platform problem's fields and extensions), in any case and URL-encoded.
// The copy keeps the original's class (instanceof, name) and shape; a value
// that holds no key (as far as can be seen) is handed on as it is.

import { escapeRegExp } from './scrub.js';

const REDACTED = '[redacted]';
const MAX_DEPTH = 8;

/** Builds the redaction of one API key. */
export function createRedactor(apiKey: string): <T>(value: T) => T {
  const forms = [...new Set([apiKey, encodeURIComponent(apiKey)])].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'gi');
  const text = (value: string) => value.replace(pattern, REDACTED);

  function copy(value: unknown, depth: number, seen: Map<object, unknown>): unknown {
    if (typeof value === 'string') return text(value);
    if (typeof value !== 'object' || value === null) return typeof value === 'function' ? undefined : value;
    if (seen.has(value)) return seen.get(value);
    if (depth > MAX_DEPTH) return undefined;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      seen.set(value, out);
      for (const item of value) out.push(copy(item, depth + 1, seen));
      return out;
    }
    // Errors keep their prototype (so their class, name and toJSON); other objects become plain ones.
    const out: Record<string, unknown> =
      value instanceof Error ? (Object.create(Object.getPrototypeOf(value) as object) as Record<string, unknown>) : {};
    seen.set(value, out);
    for (const name of Object.getOwnPropertyNames(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, name)!;
      if (!('value' in descriptor)) continue;
      Object.defineProperty(out, name, {
        value: copy(descriptor.value, depth + 1, seen),
        enumerable: descriptor.enumerable,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  /** Whether the value may hold the key: it does, or it holds what a copy cannot look into. */
  function holdsKey(value: unknown, depth: number, seen: Set<object>): boolean {
    if (typeof value === 'string') {
      pattern.lastIndex = 0;
      return pattern.test(value);
    }
    if (typeof value !== 'object' || value === null) return typeof value === 'function';
    if (seen.has(value)) return false;
    if (depth > MAX_DEPTH) return true;
    seen.add(value);
    const proto = Object.getPrototypeOf(value) as unknown;
    if (!(value instanceof Error) && proto !== Object.prototype && proto !== Array.prototype && proto !== null)
      return true;
    if (Object.getOwnPropertySymbols(value).length > 0) return true;
    for (const name of Object.getOwnPropertyNames(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, name)!;
      if (!('value' in descriptor) || holdsKey(descriptor.value, depth + 1, seen)) return true;
    }
    return false;
  }

  return <T>(value: T) => (holdsKey(value, 0, new Set()) ? (copy(value, 0, new Map()) as T) : value);
}
